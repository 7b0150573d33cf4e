import type {
  FeedTokenCreated,
  FeedTokenStatus,
  LibraryEntry,
  LibraryResponse,
  UpdateLibraryEntryBody,
} from '@inkwell/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { MutationCallbacks } from '../../../lib/mutations.ts';
import { keys } from '../../../lib/query-keys.ts';

export const libraryQuery = () =>
  queryOptions({
    queryKey: keys.library,
    queryFn: ({ signal }) => api.get<LibraryResponse>('/api/my/library', signal),
  });

/** One book's status, owned flag, progress and saved position for the signed-in reader. */
export const libraryEntryQuery = (bookId: number) =>
  queryOptions({
    queryKey: keys.libraryEntry(bookId),
    queryFn: ({ signal }) => api.get<LibraryEntry>(`/api/my/library/${bookId}`, signal),
  });

/**
 * Sets a book's status or owned flag. The entry shows the choice at once; a refusal puts the
 * previous entry back. The shelves are asked again after a success.
 */
export function useUpdateLibraryEntry(
  bookId: number,
  ui: MutationCallbacks<LibraryEntry, UpdateLibraryEntryBody> = {},
) {
  const client = useQueryClient();
  const key = keys.libraryEntry(bookId);
  return useMutation({
    mutationFn: (body: UpdateLibraryEntryBody) =>
      api.put<LibraryEntry>(`/api/my/library/${bookId}`, body),
    onMutate: async (body) => {
      await client.cancelQueries({ queryKey: key, exact: true });
      const previous = client.getQueryData<LibraryEntry>(key);
      if (previous) client.setQueryData<LibraryEntry>(key, { ...previous, ...body });
      return { previous };
    },
    onSuccess: (saved, ...rest) => {
      client.setQueryData(key, saved);
      void client.invalidateQueries({ queryKey: keys.library, exact: true });
      return ui.onSuccess?.(saved, ...rest);
    },
    onError: (error, body, context, ...rest) => {
      if (context?.previous) client.setQueryData(key, context.previous);
      return ui.onError?.(error, body, context, ...rest);
    },
  });
}

export const feedTokenQuery = () =>
  queryOptions({
    queryKey: keys.feedToken,
    queryFn: ({ signal }) => api.get<FeedTokenStatus>('/api/my/feed-token', signal),
  });

/** Makes a new private feed address (replacing any); the feed's status is asked again. */
export function useCreateFeedToken(ui: MutationCallbacks<FeedTokenCreated, void> = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<FeedTokenCreated>('/api/my/feed-token'),
    ...ui,
    onSettled: () => client.invalidateQueries({ queryKey: keys.feedToken }),
  });
}

/** Revokes the private feed address; the feed's status is asked again. */
export function useRevokeFeedToken(ui: MutationCallbacks<unknown, void> = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<unknown>('/api/my/feed-token'),
    ...ui,
    onSettled: () => client.invalidateQueries({ queryKey: keys.feedToken }),
  });
}
