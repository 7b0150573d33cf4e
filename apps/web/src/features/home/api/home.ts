import type { Book, HomePicks } from '@inkwell/contract';
import type { PopularBook } from '../../../lib/contract-types.ts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { POPULAR_BOOKS_SHOWN, RECENT_BOOKS_SHOWN } from '../../../lib/constants.ts';

/** Recent books: the first 10 that have a cover. */
export const pickRecent = (books: readonly Book[]): Book[] =>
  books.filter((b) => b.cover).slice(0, RECENT_BOOKS_SHOWN);

export const recentBooksQuery = () =>
  queryOptions({
    queryKey: ['home', 'recent'],
    queryFn: ({ signal }) => api.get<Book[]>('/api/recent/books', signal),
    select: pickRecent,
  });

export const popularBooksQuery = () =>
  queryOptions({
    queryKey: ['home', 'popular'],
    queryFn: ({ signal }) => api.get<{ popular: PopularBook[] }>('/api/popular/books', signal),
    select: (data) => data.popular.slice(0, POPULAR_BOOKS_SHOWN),
  });

export const homePicksQuery = () =>
  queryOptions({
    queryKey: ['home', 'authors'],
    queryFn: ({ signal }) => api.get<HomePicks>('/api/home/authors', signal),
  });
