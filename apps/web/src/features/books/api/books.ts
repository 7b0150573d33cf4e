import type { Book, BookFollowState, FollowedBooks } from '@inkwell/contract';
import { BOOK_PAGE_SIZE, SEARCH_PAGE_SIZE } from '@inkwell/contract/constants';
import {
  infiniteQueryOptions,
  queryOptions,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { nextOffset } from '../../../components/InfiniteList.tsx';
import { api } from '../../../lib/api.ts';
import type { MutationCallbacks } from '../../../lib/mutations.ts';
import { keys } from '../../../lib/query-keys.ts';

export const booksQuery = () =>
  infiniteQueryOptions({
    queryKey: keys.bookList,
    queryFn: ({ pageParam, signal }) =>
      api.get<Book[]>(`/api/books?limit=${BOOK_PAGE_SIZE}&offset=${pageParam}`, signal),
    initialPageParam: 0,
    getNextPageParam: (last, all) => nextOffset(last, all, BOOK_PAGE_SIZE),
  });

/**
 * Search results, a page of SEARCH_PAGE_SIZE at a time. The first page is the spec's plain
 * `?q=` call. A failed first page shows as no results (SPEC section 8); a failed later page is
 * an error the page can show beside the results already there.
 */
export const searchQuery = (q: string) =>
  infiniteQueryOptions({
    queryKey: keys.bookSearch(q),
    queryFn: async ({ pageParam, signal }) => {
      const params = new URLSearchParams(pageParam ? { q, offset: String(pageParam) } : { q });
      try {
        return (await api.get<{ books: Book[] }>(`/api/books/search?${params}`, signal)).books;
      } catch (error) {
        if ((error as Error).name === 'AbortError' || pageParam > 0) throw error;
        return [];
      }
    },
    initialPageParam: 0,
    getNextPageParam: (last, all) => nextOffset(last, all, SEARCH_PAGE_SIZE),
    enabled: q.trim() !== '',
  });

export const genreBooksQuery = (genre: string) =>
  queryOptions({
    queryKey: keys.genreBooks(genre),
    queryFn: ({ signal }) =>
      api.get<Book[]>(`/api/books/genres/${encodeURIComponent(genre)}`, signal),
  });

/** The books the signed-in reader follows, with their published and unread chapter counts. */
export const followedBooksQuery = () =>
  queryOptions({
    queryKey: keys.followedBooks,
    queryFn: async ({ signal }) =>
      (await api.get<FollowedBooks>('/api/my/followed-books', signal)).books,
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
