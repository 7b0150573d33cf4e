import type { Book } from '@inkwell/contract';
import { Link } from 'react-router';
import { RATING_LABELS, STATUS_LABELS, warningName, wordCount } from '../../../lib/book-labels.ts';
import { paths } from '../../../lib/paths.ts';

/** The author's tags, each a link to every book with it. */
function TagLinks({ tags }: { tags: readonly string[] }) {
  if (tags.length === 0) return null;
  return (
    <ul className="tags free-tags" aria-label="Tags">
      {tags.map((tag) => (
        <li key={tag}>
          <Link className="tag free-tag" to={paths.booksTagged(tag)}>
            {tag}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/**
 * What a reader decides on before opening a book (issue 21): its status, rating, length, the
 * author's content warnings and tags.
 */
export function BookFacts({ book }: { book: Book }) {
  return (
    <>
      <p className="book-facts">
        <span className="book-status">{STATUS_LABELS[book.status]}</span>
        <span>Rated {RATING_LABELS[book.rating]}</span>
        <span>{wordCount(book.words)}</span>
      </p>
      {book.warnings.length > 0 && (
        <p className="book-warnings">
          <span className="book-warnings-label">Warnings:</span>{' '}
          {book.warnings.map(warningName).join(', ')}
        </p>
      )}
      <TagLinks tags={book.tags} />
    </>
  );
}
