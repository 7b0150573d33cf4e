import type {
  FeedTokenCreated,
  FeedTokenStatus,
  LibraryEntry,
  LibraryResponse,
  UpdateLibraryEntryBody,
} from '@inkwell/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { keys } from '../../../lib/query.ts';

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

export const updateLibraryEntry = (bookId: number, body: UpdateLibraryEntryBody) =>
  api.put<LibraryEntry>(`/api/my/library/${bookId}`, body);

const feedTokenKey = ['my', 'feed-token'] as const;
export const feedTokenQuery = () =>
  queryOptions({
    queryKey: feedTokenKey,
    queryFn: ({ signal }) => api.get<FeedTokenStatus>('/api/my/feed-token', signal),
  });
export { feedTokenKey };
export const createFeedToken = () => api.post<FeedTokenCreated>('/api/my/feed-token');
export const revokeFeedToken = () => api.delete<unknown>('/api/my/feed-token');
