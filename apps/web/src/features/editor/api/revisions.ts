import type { Chapter, Revision, RevisionsResponse } from '@inkwell/contract';
import { REVISIONS_LIST_LIMIT } from '@inkwell/contract/constants';
import { infiniteQueryOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { keys } from '../../../lib/query-keys.ts';

/**
 * Issue 20: a chapter's kept versions (newest first), for its author's History panel. The API
 * answers at most REVISIONS_LIST_LIMIT at a time; each older page asks for the versions `before`
 * the oldest one shown.
 */
export const revisionsQuery = (chapterId: number) =>
  infiniteQueryOptions({
    queryKey: keys.chapterRevisions(chapterId),
    initialPageParam: null as number | null,
    queryFn: ({ pageParam, signal }) =>
      api.get<RevisionsResponse>(
        `/api/chapters/${chapterId}/revisions${pageParam === null ? '' : `?before=${pageParam}`}`,
        signal,
      ),
    // The answer does not say whether older versions remain: a full page means there may be.
    getNextPageParam: ({ revisions }) =>
      revisions.length < REVISIONS_LIST_LIMIT ? undefined : revisions.at(-1)?.id,
    // Every save adds one: History asks again each time it opens. A refetch asks for every page
    // shown, each `before` the oldest of the fresh page above it, so none is skipped or doubled.
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
