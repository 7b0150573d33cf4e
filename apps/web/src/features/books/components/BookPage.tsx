import { useQuery } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { Link, useParams } from 'react-router';
import { CoverImage } from '../../../components/CoverImage.tsx';
import { EpubDownload } from '../../../components/EpubDownload.tsx';
import { FeedLink } from '../../../components/FeedLink.tsx';
import { PageTitle } from '../../../components/Page.tsx';
import { Loading, Status } from '../../../components/Status.tsx';
import { isApiError } from '../../../lib/api.ts';
import { paths, routeId, url } from '../../../lib/paths.ts';
import { useSession } from '../../../lib/session.tsx';
import { bookChaptersQuery, bookQuery, readChaptersQuery } from '../../../lib/query.ts';
import { authorOf, GenreTags } from './BookCard.tsx';
import { Announcements } from './Announcements.tsx';
import { BookFacts } from './BookFacts.tsx';
import { BookFollowButton } from './BookFollowButton.tsx';
import { ReleaseSchedule } from './ReleaseSchedule.tsx';

function ChapterList({ bookId }: { bookId: number }) {
  const { state } = useSession();
  const chapters = useQuery(bookChaptersQuery(bookId));
  const read = useQuery({ ...readChaptersQuery(), enabled: state.status === 'in' });

  if (chapters.isPending) return <Loading />;
  if (chapters.isError) return <Status kind="error">Could not load the chapters.</Status>;
  if (chapters.data.length === 0) return <Status kind="empty">No Chapters.</Status>;
  return (
    <ol className="chapter-list">
      {chapters.data.map((chapter, index) => {
        const isRead = read.data?.has(chapter.id) ?? false;
        return (
          <li key={chapter.id} className={isRead ? 'is-read' : undefined}>
            {/* Its place among the chapters shown (the author's own list has drafts too). */}
            <span className="chapter-number" aria-hidden="true">
              {index + 1}
            </span>
            <Link to={paths.chapter(bookId, chapter.id)}>{chapter.title}</Link>
            {isRead && (
              <span className="read-mark" title="Read">
                <svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18">
                  <path fill="currentColor" d="m9 16.2-4.2-4.2-1.4 1.4L9 19 21 7l-1.4-1.4z" />
                </svg>
                <span className="visually-hidden">Read</span>
              </span>
            )}
          </li>
        );
      })}
    </ol>
  );
}

type BookPart = ComponentType<{ bookId: number }>;

/** `Shelf` and `Notes`: the signed-in reader's status, progress and private notes, given by the app. */
export function BookPage({ Shelf, Notes }: { Shelf?: BookPart; Notes?: BookPart } = {}) {
  const { state } = useSession();
  const bookId = routeId(useParams().bookId);
  const book = useQuery({ ...bookQuery(bookId), enabled: Number.isInteger(bookId) && bookId > 0 });
  const chapters = useQuery(bookChaptersQuery(bookId));
  const first = chapters.data?.[0];

  if (!Number.isInteger(bookId) || bookId <= 0 || isApiError(book.error, 404)) {
    return (
      <div className="page page-narrow">
        <PageTitle>Book not found</PageTitle>
        <p>This book does not exist or is not published.</p>
        <Link to={paths.books}>Browse all books</Link>
      </div>
    );
  }
  if (book.isPending) return <Loading />;
  if (book.isError) return <Status kind="error">Could not load this book.</Status>;

  const b = book.data;
  return (
    <div className="page book-page">
      <FeedLink title={`New chapters of ${b.title}`} href={url(`/api/books/${b.id}/feed.atom`)} />
      <div className="book-hero">
        <CoverImage src={b.cover} title={b.title} className="cover-large" decorative={false} />
        <div className="book-hero-text">
          <PageTitle>{b.title}</PageTitle>
          <p className="book-author">
            by <Link to={paths.author(b.author_username)}>{authorOf(b)}</Link>
          </p>
          <GenreTags genres={b.genres} />
          <BookFacts book={b} />
          {b.summary ? (
            <p className="book-summary">{b.summary}</p>
          ) : (
            <p className="muted">No summary yet.</p>
          )}
          <ReleaseSchedule book={b} />
          <p className="book-actions">
            {first && (
              <Link className="button" to={paths.chapter(b.id, first.id)}>
                Start reading
              </Link>
            )}{' '}
            <EpubDownload
              className="button button-secondary"
              bookId={b.id}
              title={b.title}
              preparing="Preparing EPUB..."
            >
              Download EPUB
            </EpubDownload>
          </p>
          <BookFollowButton book={b} />
          {Shelf && state.status === 'in' && <Shelf bookId={b.id} />}
        </div>
      </div>
      <section aria-labelledby="chapters-title" className="book-chapters">
        <h2 id="chapters-title">Chapters</h2>
        <ChapterList bookId={bookId} />
      </section>
      <Announcements
        bookId={b.id}
        own={state.status === 'in' && state.account.id === b.author_id}
      />
      {Notes && state.status === 'in' && <Notes bookId={b.id} />}
    </div>
  );
}
