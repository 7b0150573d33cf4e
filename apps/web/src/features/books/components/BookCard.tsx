import type { Book } from '@inkwell/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { CoverImage } from '../../../components/CoverImage.tsx';
import { paths } from '../../../lib/paths.ts';
import { displayName } from '../../../lib/titles.ts';
import { BookFacts } from './BookFacts.tsx';

export function GenreTags({ genres }: { genres: readonly string[] }) {
  if (genres.length === 0) return null;
  return (
    <ul className="tags" aria-label="Genres">
      {genres.map((g) => (
        <li key={g}>
          <Link className="tag" to={paths.genre(g)}>
            {g}
          </Link>
        </li>
      ))}
    </ul>
  );
}

const authorOf = (book: Book) =>
  displayName({
    username: book.author_username,
    first_name: book.author_first_name,
    last_name: book.author_last_name,
  });

/**
 * A book in a list: cover (or title), title link, author link, its status, rating, warnings and
 * tags, optional genre tags, summary; `children` (a list's own facts, e.g. unread chapters, a
 * search hit's passage) go under the summary.
 */
export function BookCard({
  book,
  showGenres = false,
  showReadNow = true,
  children,
}: {
  book: Book;
  showGenres?: boolean;
  showReadNow?: boolean;
  children?: ReactNode;
}) {
  return (
    <article className="book-card">
      <Link to={paths.book(book.id)} className="book-card-cover" tabIndex={-1} aria-hidden="true">
        <CoverImage src={book.cover} title={book.title} />
      </Link>
      <div className="book-card-body">
        <h2 className="book-card-title">
          <Link to={paths.book(book.id)}>{book.title}</Link>
        </h2>
        <p className="book-card-author">
          by <Link to={paths.author(book.author_username)}>{authorOf(book)}</Link>
        </p>
        <BookFacts book={book} />
        {showGenres && <GenreTags genres={book.genres} />}
        {book.summary && <p className="book-card-summary">{book.summary}</p>}
        {children}
        {showReadNow && (
          // The visible words come first in the link's name (WCAG 2.5.3), the book's title after.
          <Link
            className="button button-small"
            to={paths.book(book.id)}
            aria-label={`Read Now: ${book.title}`}
          >
            Read Now
          </Link>
        )}
      </div>
    </article>
  );
}

export { authorOf };
