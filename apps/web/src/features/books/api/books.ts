import type { Book, BookFollowState, FollowedBooks, SearchHit } from '@inkwell/contract';
import { BOOK_PAGE_SIZE, SEARCH_PAGE_SIZE } from '@inkwell/contract/constants';
import {
  infiniteQueryOptions,
  queryOptions,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { nextOffset } from '../../../components/InfiniteList.tsx';
import { api } from '../../../lib/api.ts';
import { getFiltered, withFiltersOff, type Filtered } from '../../../lib/filtered.ts';
import type { MutationCallbacks } from '../../../lib/mutations.ts';
import { keys } from '../../../lib/query-keys.ts';

/** `path` with the list's paging and its filter query (filters.ts, apiFilterQuery). */
const listPath = (path: string, filter: string, paging: Record<string, string>) => {
  const query = new URLSearchParams(filter);
  for (const [name, value] of Object.entries(paging)) query.set(name, value);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
};

/** The pages' books in one list, and what the reader's exclusions hid (the first page says). */
export const filteredPages = <T>(pages: readonly Filtered<T[]>[] | undefined) => ({
  items: pages?.flatMap((page) => page.items) ?? [],
  hidden: pages?.[0]?.hidden ?? 0,
});

/** All books, a page at a time, narrowed by `filter` (an API filter query; '' for none). */
export const booksQuery = (filter: string) =>
  infiniteQueryOptions({
    queryKey: keys.bookList(filter),
    queryFn: ({ pageParam, signal }) =>
      getFiltered<Book[]>(
        listPath('/api/books', filter, {
          limit: String(BOOK_PAGE_SIZE),
          offset: String(pageParam),
        }),
        signal,
      ),
    initialPageParam: 0,
    getNextPageParam: (last, all) =>
      nextOffset(
        last.items,
        all.map((page) => page.items),
        BOOK_PAGE_SIZE,
      ),
  });

/**
 * Search results, a page of SEARCH_PAGE_SIZE at a time, narrowed by `filter`. Without filters the
 * first page is the spec's plain `?q=` call. A failure is an error, never an empty answer: so it is
 * retried like any query and no "no match" is cached. The search page shows a failed first page as
 * no results (SPEC section 8), with a way to ask again, unless filters were set (then it says what
 * the server refused); a failed later page is an error shown beside the results already there.
 */
export const searchQuery = (q: string, filter: string) =>
  infiniteQueryOptions({
    queryKey: keys.bookSearch(q, filter),
    queryFn: async ({ pageParam, signal }): Promise<Filtered<SearchHit[]>> => {
      const paging: Record<string, string> = pageParam ? { q, offset: String(pageParam) } : { q };
      const page = await getFiltered<{ books: SearchHit[] }>(
        listPath('/api/books/search', filter, paging),
        signal,
      );
      return { items: page.items.books, hidden: page.hidden };
    },
    initialPageParam: 0,
    getNextPageParam: (last, all) =>
      nextOffset(
        last.items,
        all.map((page) => page.items),
        SEARCH_PAGE_SIZE,
      ),
    enabled: q.trim() !== '',
  });

export const genreBooksQuery = (genre: string, filter: string) =>
  queryOptions({
    queryKey: keys.genreBooks(genre, filter),
    queryFn: ({ signal }) =>
      getFiltered<Book[]>(
        listPath(`/api/books/genres/${encodeURIComponent(genre)}`, filter, {}),
        signal,
      ),
  });

/** The books the signed-in reader follows, with their published and unread chapter counts. */
export const followedBooksQuery = (filtersOff: boolean) =>
  queryOptions({
    queryKey: keys.followedBooksShown(filtersOff),
    queryFn: async ({ signal }) => {
      const answer = await getFiltered<FollowedBooks>(
        withFiltersOff('/api/my/followed-books', filtersOff),
        signal,
      );
      return { items: answer.items.books, hidden: answer.hidden };
    },
  });

/**
 * Follows the book, or unfollows it when `wasFollowing` is true. The answer is the new state:
 * it is written into the book's cached answer at once (the button and the count), and the list
 * of followed books is asked again.
 */
export function useToggleBookFollow(
  bookId: number,
  ui: MutationCallbacks<BookFollowState, boolean> = {},
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (wasFollowing: boolean) =>
      wasFollowing
        ? api.delete<BookFollowState>(`/api/books/${bookId}/follow`)
        : api.post<BookFollowState>(`/api/books/${bookId}/follow`),
    ...ui,
    onSuccess: async (state, ...rest) => {
      client.setQueryData<Book>(
        keys.book(bookId),
        (book) => book && { ...book, following: state.following, followers: state.followers },
      );
      void client.invalidateQueries({ queryKey: keys.followedBooks });
      await ui.onSuccess?.(state, ...rest);
    },
  });
}
