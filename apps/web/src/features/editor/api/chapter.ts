import type { Chapter, UpdateChapterBody } from '@inkwell/contract';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { chapterQuery, refreshPublicViews } from '../../../lib/query.ts';
import { keys } from '../../../lib/query-keys.ts';

/**
 * The chapter as the editor needs it: asked of the server on every opening, since a copy the
 * reader cached could be older than a save made in another tab. The page waits for that answer
 * (isFetchedAfterMount) before it shows the editor.
 */
export const editorChapterQuery = (chapterId: number) =>
  queryOptions({
    ...chapterQuery(chapterId),
    staleTime: 0,
    refetchOnMount: 'always',
    refetchOnReconnect: false,
  });

export const updateChapter = (bookId: number, chapterId: number, body: UpdateChapterBody) =>
  api.put<Chapter>(`/api/books/${bookId}/chapters/${chapterId}`, body);

/**
 * After a save: the chapter lists that show titles, publish states and counts (the workspace's and
 * the readers'), and the chapter itself, marked stale without asking for it again, so the reader
 * shows the saved text next time and the editor does not fetch after every autosave.
 */
export function refreshAfterSave(client: QueryClient, bookId: number, chapterId: number) {
  void client.invalidateQueries({ queryKey: keys.authorChapters(bookId) });
  void client.invalidateQueries({ queryKey: keys.bookChapters(bookId) });
  void client.invalidateQueries({ queryKey: keys.chapter(chapterId), refetchType: 'none' });
}

/**
 * After a write readers may see (publishing, a schedule, a title): besides the chapter lists, the
 * views that show the book's chapters and counts (its page, lists, the author's profile, home).
 */
export function refreshAfterPublicChange(client: QueryClient, bookId: number, chapterId: number) {
  refreshAfterSave(client, bookId, chapterId);
  refreshPublicViews(client);
}

/** The chapter as the server has it now, outside the query cache (the editor keeps its own state). */
export const readChapter = (chapterId: number) => api.get<Chapter>(`/api/chapters/${chapterId}`);
