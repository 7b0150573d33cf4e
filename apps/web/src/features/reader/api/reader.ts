import type { Chapter, ReadingProgress } from '@inkwell/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export { bookChaptersQuery, bookQuery } from '../../../lib/query.ts';

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
