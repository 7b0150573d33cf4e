import type { Book, HomePicks } from '@inkwell/contract';
import type { PopularBook } from '../../../lib/contract-types.ts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { POPULAR_BOOKS_SHOWN, RECENT_BOOKS_SHOWN } from '../../../lib/constants.ts';
import { keys } from '../../../lib/query-keys.ts';

/** Recent books: the first 10 that have a cover. */
const pickRecent = (books: readonly Book[]): Book[] =>
  books.filter((b) => b.cover).slice(0, RECENT_BOOKS_SHOWN);

export const recentBooksQuery = () =>
  queryOptions({
    queryKey: keys.homeRecent,
    queryFn: ({ signal }) => api.get<Book[]>('/api/recent/books', signal),
    select: pickRecent,
  });

export const popularBooksQuery = () =>
  queryOptions({
    queryKey: keys.homePopular,
    queryFn: ({ signal }) => api.get<{ popular: PopularBook[] }>('/api/popular/books', signal),
    select: (data) => data.popular.slice(0, POPULAR_BOOKS_SHOWN),
  });

export const homePicksQuery = () =>
  queryOptions({
    queryKey: keys.homeAuthors,
    queryFn: ({ signal }) => api.get<HomePicks>('/api/home/authors', signal),
  });
