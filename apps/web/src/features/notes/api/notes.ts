import type { CreateNoteBody, Note } from '@inkwell/contract';
import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api } from '../../../lib/api.ts';
import { keys } from '../../../lib/query-keys.ts';

/** The writer's notes: all of them, one book's, or one chapter's. */
export const notesQuery = (filter: { bookId?: number; chapterId?: number } = {}) =>
  queryOptions({
    queryKey: keys.notesOf(filter),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams();
      if (filter.bookId) params.set('book_id', String(filter.bookId));
      if (filter.chapterId) params.set('chapter_id', String(filter.chapterId));
      const query = params.size ? `?${params}` : '';
      return api.get<{ notes: Note[] }>(`/api/my/notes${query}`, signal);
    },
    select: (data) => data.notes,
  });

/**
 * Writes to the notes. Each resolves once every notes list has been read again, so a form that
 * closes afterwards shows the change; a failure rejects, for the form to report.
 */
export function useNoteWrites() {
  const client = useQueryClient();
  return useMemo(() => {
    const refreshed = async <T>(write: Promise<T>): Promise<T> => {
      const answer = await write;
      await client.invalidateQueries({ queryKey: keys.notes });
      return answer;
    };
    return {
      create: (body: CreateNoteBody) => refreshed(api.post<Note>('/api/my/notes', body)),
      update: (id: number, body: string) =>
        refreshed(api.put<Note>(`/api/my/notes/${id}`, { body })),
      remove: (id: number) => refreshed(api.delete<void>(`/api/my/notes/${id}`)),
    };
  }, [client]);
}
