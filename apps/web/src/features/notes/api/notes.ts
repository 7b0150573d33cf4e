import type { CreateNoteBody, Note } from '@inkwell/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** The writer's notes: all of them, one book's, or one chapter's. Private, so under 'my'. */
export const notesKey = (filter: { bookId?: number; chapterId?: number } = {}) =>
  ['my', 'notes', filter] as const;
export const allNotesKey = ['my', 'notes'] as const;

export const notesQuery = (filter: { bookId?: number; chapterId?: number } = {}) =>
  queryOptions({
    queryKey: notesKey(filter),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams();
      if (filter.bookId) params.set('book_id', String(filter.bookId));
      if (filter.chapterId) params.set('chapter_id', String(filter.chapterId));
      const query = params.size ? `?${params}` : '';
      return api.get<{ notes: Note[] }>(`/api/my/notes${query}`, signal);
    },
    select: (data) => data.notes,
  });

export const createNote = (body: CreateNoteBody) => api.post<Note>('/api/my/notes', body);
export const updateNote = (id: number, body: string) =>
  api.put<Note>(`/api/my/notes/${id}`, { body });
export const deleteNote = (id: number) => api.delete<void>(`/api/my/notes/${id}`);
