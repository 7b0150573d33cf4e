import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { FilteredNotice } from '../../../components/FilteredNotice.tsx';
import { Loading, Status } from '../../../components/Status.tsx';
import { useFiltersOff } from '../../../lib/filtered.ts';
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
  const [filtersOff] = useFiltersOff();
  const books = useQuery(followedBooksQuery(filtersOff));
  if (books.isPending) return <Loading>Loading the books you follow...</Loading>;
  if (books.isError) return <Status kind="error">Could not load the books you follow.</Status>;
  const { items, hidden } = books.data;
  const notice = <FilteredNotice hidden={hidden} />;
  if (items.length === 0 && hidden > 0) {
    return (
      <>
        {notice}
        <Status kind="empty">Your filters hide every book you follow.</Status>
      </>
    );
  }
  if (items.length === 0) {
    return (
      <Status kind="empty">
        You are not following any book yet. <Link to={paths.books}>Find one among the books.</Link>
      </Status>
    );
  }
  return (
    <>
      {notice}
      <ul className="followed-books">
        {items.map((book) => (
          <li key={book.id}>
            <BookCard book={book} showReadNow={false}>
              <p className={`unread-count${book.unread > 0 ? ' has-unread' : ''}`}>
                {unreadText(book.unread, book.chapters)}
              </p>
            </BookCard>
          </li>
        ))}
      </ul>
    </>
  );
}
