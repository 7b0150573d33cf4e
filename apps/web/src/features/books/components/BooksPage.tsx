import { useInfiniteQuery } from '@tanstack/react-query';
import { InfiniteList } from '../../../components/InfiniteList.tsx';
import { PageTitle } from '../../../components/Page.tsx';
import { Loading, Status } from '../../../components/Status.tsx';
import { booksQuery } from '../api/books.ts';
import { BookCard } from './BookCard.tsx';

export function BooksPage() {
  const books = useInfiniteQuery(booksQuery());
  const items = books.data?.pages.flat() ?? [];
  return (
    <div className="page">
      <PageTitle>All Books</PageTitle>
      {books.isPending && <Loading />}
      {books.isError && !books.data && <Status kind="error">Could not load books.</Status>}
      {books.data && items.length === 0 && (
        <Status kind="empty">No books have been published yet.</Status>
      )}
      {items.length > 0 && (
        <InfiniteList
          className="book-list"
          label="Books"
          items={items}
          getKey={(b) => b.id}
          render={(book) => <BookCard book={book} />}
          hasMore={books.hasNextPage}
          loading={books.isFetchingNextPage}
          onLoadMore={() => void books.fetchNextPage()}
          moreLabel="Load more books"
        />
      )}
      {books.isFetchNextPageError && <Status kind="error">Could not load more books.</Status>}
      {books.data && items.length > 0 && !books.hasNextPage && (
        <p className="list-end">You have reached the end of the list.</p>
      )}
    </div>
  );
}
