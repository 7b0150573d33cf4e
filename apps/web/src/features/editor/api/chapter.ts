import type { Chapter, UpdateChapterBody } from '@inkwell/contract';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { keys } from '../../../lib/query.ts';

/** The chapter with its content, as its author sees it (drafts included, thanks to the token). */
export const fetchChapter = (chapterId: number, signal?: AbortSignal) =>
  api.get<Chapter>(`/api/chapters/${chapterId}`, signal);

/**
 * The editor always starts from the server's copy of the moment: never a cached one, which could
 * be older than a save made in another tab.
 */
export const chapterQuery = (chapterId: number) =>
  queryOptions({
    queryKey: ['my', 'chapter', chapterId] as const,
    queryFn: ({ signal }) => fetchChapter(chapterId, signal),
    staleTime: 0,
    gcTime: 0,
    refetchOnMount: 'always',
    refetchOnReconnect: false,
  });

export const updateChapter = (bookId: number, chapterId: number, body: UpdateChapterBody) =>
  api.put<Chapter>(`/api/books/${bookId}/chapters/${chapterId}`, body);

/** The chapter lists that show titles, publish states and counts: the workspace's and the readers'. */
export function refreshChapterLists(client: QueryClient, bookId: number) {
  void client.invalidateQueries({ queryKey: keys.authorChapters(bookId) });
  void client.invalidateQueries({ queryKey: keys.bookChapters(bookId) });
}
