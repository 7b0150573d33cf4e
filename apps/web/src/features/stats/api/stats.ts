import type { BookStats } from '@inkwell/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { keys } from '../../../lib/query-keys.ts';

/** The author's statistics of a book; with a chapter, also where readers stop in it. */
export const bookStatsQuery = (bookId: number, chapterId: number | null) =>
  queryOptions({
    queryKey: keys.bookStats(bookId, chapterId),
    queryFn: ({ signal }) =>
      api.get<BookStats>(
        `/api/my/books/${bookId}/stats${chapterId === null ? '' : `?chapter=${chapterId}`}`,
        signal,
      ),
  });
