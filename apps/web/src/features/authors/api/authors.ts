import type { AuthorProfile, Book, FollowedAuthors, RecentChapter } from '@inkwell/contract';
import { RECENT_CHAPTERS_PAGE_SIZE } from '@inkwell/contract/constants';
import {
  infiniteQueryOptions,
  queryOptions,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { nextOffset } from '../../../components/InfiniteList.tsx';
import { api } from '../../../lib/api.ts';
import { getFiltered, withFiltersOff } from '../../../lib/filtered.ts';
import type { MutationCallbacks } from '../../../lib/mutations.ts';
import { keys } from '../../../lib/query-keys.ts';

export const authorQuery = (username: string) =>
  queryOptions({
    queryKey: keys.author(username),
    queryFn: ({ signal }) =>
      api.get<AuthorProfile>(`/api/authors/${encodeURIComponent(username)}`, signal),
  });

/**
 * The author's recent chapters, less those of books the reader's saved exclusions hide unless
 * `filtersOff`; the first page says how many books those are.
 */
export const recentChaptersQuery = (authorId: number, filtersOff: boolean) =>
  infiniteQueryOptions({
    queryKey: keys.authorRecentChapters(authorId, filtersOff),
    queryFn: ({ pageParam, signal }) =>
      getFiltered<RecentChapter[]>(
        withFiltersOff(
          `/api/authors/${authorId}/chapters?limit=${RECENT_CHAPTERS_PAGE_SIZE}&offset=${pageParam}`,
          filtersOff,
        ),
        signal,
      ),
    initialPageParam: 0,
    getNextPageParam: (last, all) =>
      nextOffset(
        last.items,
        all.map((page) => page.items),
        RECENT_CHAPTERS_PAGE_SIZE,
      ),
  });

/** The author's books, narrowed by the reader's saved exclusions unless `filtersOff`. */
export const authorBooksQuery = (authorId: number, filtersOff: boolean) =>
  queryOptions({
    queryKey: keys.authorBooks(authorId, filtersOff),
    queryFn: ({ signal }) =>
      getFiltered<Book[]>(withFiltersOff(`/api/authors/${authorId}/books`, filtersOff), signal),
  });

export const isFollowingQuery = (authorId: number) =>
  queryOptions({
    queryKey: keys.isFollowing(authorId),
    queryFn: ({ signal }) => api.get<boolean>(`/api/authors/${authorId}/is-following`, signal),
  });

export const followsQuery = () =>
  queryOptions({
    queryKey: keys.follows,
    // The answer is {authors} (as the original backend's); the page wants the list.
    queryFn: async ({ signal }) =>
      (await api.get<FollowedAuthors>('/api/my/follows', signal)).authors,
  });

/**
 * Follows the author, or unfollows when `wasFollowing` is true; either way, the follow state and
 * the list of follows are asked again afterwards.
 */
export function useToggleFollow(authorId: number, ui: MutationCallbacks<unknown, boolean> = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (wasFollowing: boolean) =>
      wasFollowing
        ? api.delete('/api/follows', { author_id: authorId })
        : api.post('/api/follows', { author_id: authorId }),
    ...ui,
    onSettled: () => {
      void client.invalidateQueries({ queryKey: keys.isFollowing(authorId) });
      void client.invalidateQueries({ queryKey: keys.follows });
    },
  });
}
