import { useInfiniteQuery } from '@tanstack/react-query';
import { ALL_HIDDEN_TEXT, FilteredNotice } from '../../../components/FilteredNotice.tsx';
import { InfiniteList } from '../../../components/InfiniteList.tsx';
import { PageTitle } from '../../../components/Page.tsx';
import { Loading, Status } from '../../../components/Status.tsx';
import { booksQuery, filteredPages } from '../api/books.ts';
import { listErrorText, useListFilter } from '../useListFilter.ts';
import { BookCard } from './BookCard.tsx';
import { FilterPanel } from './FilterPanel.tsx';

export function BooksPage() {
  const filter = useListFilter('books');
  const books = useInfiniteQuery(booksQuery(filter.query));
  const { items, hidden } = filteredPages(books.data?.pages);
  return (
    <div className="page">
      <PageTitle>All Books</PageTitle>
      <FilterPanel scope="books" />
      {books.isPending && <Loading />}
      {books.isError && !books.data && (
        <Status kind="error">{listErrorText(books.error, 'books')}</Status>
      )}
      {books.data && <FilteredNotice hidden={hidden} />}
      {books.data && items.length === 0 && (
        <Status kind="empty">
          {filter.narrowed
            ? 'No books match these filters.'
            : hidden > 0
              ? ALL_HIDDEN_TEXT
              : 'No books have been published yet.'}
        </Status>
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
          failed={books.isFetchNextPageError}
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
