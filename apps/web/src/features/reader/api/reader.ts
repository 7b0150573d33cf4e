import type { Chapter, ReadingProgress } from '@inkwell/contract';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { bookChaptersQuery, bookQuery } from '../../../lib/query.ts';

export { bookChaptersQuery, bookQuery };

export const chapterQuery = (id: number) =>
  queryOptions({
    queryKey: ['chapters', id],
    queryFn: ({ signal }) => api.get<Chapter>(`/api/chapters/${id}`, signal),
  });

export const recordHistory = (bookId: number, chapterId: number) =>
  api.post(`/api/books/${bookId}/chapters/${chapterId}/history`);

/** Saves where the reader is in the book (PUT /api/my/progress/{bookId}). */
export const saveProgress = (
  bookId: number,
  position: { chapter_id: number; paragraph: number; offset: number },
) => api.put<ReadingProgress>(`/api/my/progress/${bookId}`, position);

/**
 * Puts what the reader shows into the cache (the chapter, its book, the chapter list for
 * Previous/Next), so that the page renders once, complete: used as the route's loader. On a first
 * visit the server has already asked for all three (page preloads), and these requests take its
 * answers. Never throws: a failed read stays in the cache as an error for the page to show.
 */
export async function prefetchReader(client: QueryClient, bookId: number, chapterId: number) {
  if (!(bookId > 0) || !(chapterId > 0)) return;
  await Promise.all([
    client.prefetchQuery(chapterQuery(chapterId)),
    client.prefetchQuery(bookQuery(bookId)),
    client.prefetchQuery(bookChaptersQuery(bookId)),
  ]);
}
