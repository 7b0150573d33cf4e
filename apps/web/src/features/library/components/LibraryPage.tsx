import type { LibraryEntry, LibraryResponse } from '@inkwell/contract';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { CoverImage } from '../../../components/CoverImage.tsx';
import { PageTitle } from '../../../components/Page.tsx';
import { Loading, Status } from '../../../components/Status.tsx';
import { formatDate } from '../../../lib/format.ts';
import { paths } from '../../../lib/paths.ts';
import { libraryQuery } from '../api/library.ts';
import { continueReadingPath, progressText, STATUS_LABELS } from '../shelves.ts';
import { PrivateFeed } from './PrivateFeed.tsx';
import '../library.css';

const SHELVES: Array<{ key: keyof LibraryResponse['shelves']; title: string }> = [
  { key: 'reading', title: STATUS_LABELS.reading },
  { key: 'want_to_read', title: STATUS_LABELS.want_to_read },
  { key: 'finished', title: STATUS_LABELS.finished },
  { key: 'dropped', title: STATUS_LABELS.dropped },
  { key: 'owned', title: 'Owned' },
];

const authorName = (b: LibraryEntry['book']) =>
  [b.author_first_name, b.author_last_name].filter(Boolean).join(' ') || b.author_username;

function LibraryCard({ entry }: { entry: LibraryEntry }) {
  const { book } = entry;
  const next = continueReadingPath(entry);
  return (
    <li className="library-card">
      <Link to={paths.book(book.id)} className="library-cover" tabIndex={-1} aria-hidden="true">
        <CoverImage src={book.cover} title={book.title} className="cover-small" />
      </Link>
      <div className="library-card-text">
        <h4>
          <Link to={paths.book(book.id)}>{book.title}</Link>
        </h4>
        <p className="muted">by {authorName(book)}</p>
        <p>{progressText(entry.progress)}</p>
        <p className="muted">
          {entry.last_read_at ? `Last read ${formatDate(entry.last_read_at)}` : 'Not read yet'}
        </p>
        {next && (
          <Link to={next}>
            Continue reading<span className="visually-hidden"> {book.title}</span>
          </Link>
        )}
      </div>
    </li>
  );
}

/**
 * /my/library: the reader's shelves with covers, progress and the date last read, and the private
 * feed. `children` is where the app adds more of the reader's things (their notes).
 */
export function LibraryPage({ children }: { children?: ReactNode }) {
  const library = useQuery(libraryQuery());
  let shelves: ReactNode;
  if (library.isPending) shelves = <Loading />;
  else if (library.isError) shelves = <Status kind="error">Could not load your library.</Status>;
  else
    shelves = SHELVES.map(({ key, title }) => {
      const entries = library.data.shelves[key];
      return (
        <section key={key} className="library-shelf" aria-labelledby={`shelf-${key}`}>
          <h3 id={`shelf-${key}`}>
            {title} <span className="muted">({entries.length})</span>
          </h3>
          {entries.length === 0 ? (
            <p className="muted">No books here yet.</p>
          ) : (
            <ul className="library-list">
              {entries.map((entry) => (
                <LibraryCard key={entry.book.id} entry={entry} />
              ))}
            </ul>
          )}
        </section>
      );
    });
  return (
    <div className="page library-page">
      <PageTitle>My Library</PageTitle>
      <section aria-labelledby="shelves-title">
        <h2 id="shelves-title">Shelves</h2>
        {shelves}
      </section>
      {children}
      <PrivateFeed />
    </div>
  );
}
