import type { Book, HomePicks } from '@inkwell/contract';
import type { PopularBook } from '../../../lib/contract-types.ts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { getFiltered, withFiltersOff } from '../../../lib/filtered.ts';
import { EBOOKS_SHOWN, POPULAR_BOOKS_SHOWN, RECENT_BOOKS_SHOWN } from '../../../lib/constants.ts';
import { keys } from '../../../lib/query-keys.ts';

/** Recent books: the first 10 that have a cover. */
const pickRecent = (books: readonly Book[]): Book[] =>
  books.filter((b) => b.cover).slice(0, RECENT_BOOKS_SHOWN);

/**
 * The home page's lists, narrowed by the reader's saved exclusions unless `filtersOff` ("show
 * anyway"); each says how many books those exclusions removed.
 */
export const recentBooksQuery = (filtersOff: boolean) =>
  queryOptions({
    queryKey: keys.homeRecent(filtersOff),
    queryFn: async ({ signal }) => {
      const filtered = await getFiltered<Book[]>(
        withFiltersOff('/api/recent/books', filtersOff),
        signal,
      );
      const books = pickRecent(filtered.items);
      if (filtered.hidden === 0) return { books, hidden: 0 };
      // The server counts among the 30 books it answers; the page shows the first 10 with a
      // cover, so only the hidden books that would have had a place here are counted.
      const everything = await api.get<Book[]>(withFiltersOff('/api/recent/books', true), signal);
      const kept = new Set(filtered.items.map((book) => book.id));
      return { books, hidden: pickRecent(everything).filter((b) => !kept.has(b.id)).length };
    },
  });

/** Top books: the server counts the hidden ones among as many as the page shows. */
export const popularBooksQuery = (filtersOff: boolean) =>
  queryOptions({
    queryKey: keys.homePopular(filtersOff),
    queryFn: ({ signal }) =>
      getFiltered<{ popular: PopularBook[] }>(
        withFiltersOff(`/api/popular/books?limit=${POPULAR_BOOKS_SHOWN}`, filtersOff),
        signal,
      ),
    select: (data) => ({ books: data.items.popular, hidden: data.hidden }),
  });

/**
 * E-books: the most read completed books, each a whole EPUB to take away (the spec's home page has
 * an "E-books" section of hard-coded samples; these are real, and download).
 */
export const ebooksQuery = (filtersOff: boolean) =>
  queryOptions({
    queryKey: keys.homeEbooks(filtersOff),
    queryFn: ({ signal }) =>
      getFiltered<Book[]>(
        withFiltersOff(
          `/api/books?status=completed&sort=popular&limit=${EBOOKS_SHOWN}`,
          filtersOff,
        ),
        signal,
      ),
    select: (data) => ({ books: data.items, hidden: data.hidden }),
  });

/** The author picks, which leave muted authors out unless `filtersOff`, as the lists do. */
export const homePicksQuery = (filtersOff: boolean) =>
  queryOptions({
    queryKey: keys.homeAuthors(filtersOff),
    queryFn: ({ signal }) =>
      api.get<HomePicks>(withFiltersOff('/api/home/authors', filtersOff), signal),
  });
