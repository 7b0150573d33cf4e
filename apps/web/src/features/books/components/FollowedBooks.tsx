import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Loading, Status } from '../../../components/Status.tsx';
import { paths } from '../../../lib/paths.ts';
import { followedBooksQuery } from '../api/books.ts';
import { BookCard } from './BookCard.tsx';

const unreadText = (unread: number, chapters: number) =>
  chapters === 0
    ? 'No chapters yet'
    : unread === 0
      ? `All ${chapters} read`
      : `${unread} unread of ${chapters}`;

/** The books the reader follows, newest follow first, each with how many chapters are unread. */
export function FollowedBooks() {
  const books = useQuery(followedBooksQuery());
  if (books.isPending) return <Loading>Loading the books you follow...</Loading>;
  if (books.isError) return <Status kind="error">Could not load the books you follow.</Status>;
  if (books.data.length === 0) {
    return (
      <Status kind="empty">
        You are not following any book yet. <Link to={paths.books}>Find one among the books.</Link>
      </Status>
    );
  }
  return (
    <ul className="followed-books">
      {books.data.map((book) => (
        <li key={book.id}>
          <BookCard book={book} showReadNow={false}>
            <p className={`unread-count${book.unread > 0 ? ' has-unread' : ''}`}>
              {unreadText(book.unread, book.chapters)}
            </p>
          </BookCard>
        </li>
      ))}
    </ul>
  );
}
