import type { Chapter } from '@inkwell/contract';
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
