import type { Chapter, Revision, RevisionsResponse } from '@inkwell/contract';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { keys } from '../../../lib/query-keys.ts';

/** Issue 20: a chapter's kept versions (newest first), for its author's History panel. */
export const revisionsQuery = (chapterId: number) =>
  queryOptions({
    queryKey: keys.chapterRevisions(chapterId),
    queryFn: ({ signal }) =>
      api.get<RevisionsResponse>(`/api/chapters/${chapterId}/revisions`, signal),
    // Every save adds one: History asks again each time it opens.
    staleTime: 0,
  });

/** One version with its text; a version never changes, so it is asked for once. */
export const revisionQuery = (chapterId: number, revisionId: number) =>
  queryOptions({
    queryKey: keys.chapterRevision(chapterId, revisionId),
    queryFn: ({ signal }) =>
      api.get<Revision>(`/api/chapters/${chapterId}/revisions/${revisionId}`, signal),
    staleTime: Infinity,
  });

/** Makes a version current; the answer is the chapter, as a save's. */
export const restoreRevision = (chapterId: number, revisionId: number) =>
  api.post<Chapter>(`/api/chapters/${chapterId}/revisions/${revisionId}/restore`);

/** After a restore: History lists one more version. */
export function refreshRevisions(client: QueryClient, chapterId: number) {
  void client.invalidateQueries({ queryKey: keys.chapterRevisions(chapterId) });
}
