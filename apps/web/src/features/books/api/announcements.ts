import type {
  Announcement,
  AnnouncementsResponse,
  CreateAnnouncementBody,
} from '@inkwell/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { MutationCallbacks } from '../../../lib/mutations.ts';
import { keys } from '../../../lib/query-keys.ts';

/** A book's announcements, newest first (issue 20). */
export const announcementsQuery = (bookId: number) =>
  queryOptions({
    queryKey: keys.bookAnnouncements(bookId),
    queryFn: async ({ signal }) =>
      (await api.get<AnnouncementsResponse>(`/api/books/${bookId}/announcements`, signal))
        .announcements,
  });

/** Posts an announcement on the author's book; it joins the list at once, on top. */
export function usePostAnnouncement(
  bookId: number,
  ui: MutationCallbacks<Announcement, CreateAnnouncementBody> = {},
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateAnnouncementBody) =>
      api.post<Announcement>(`/api/books/${bookId}/announcements`, body),
    ...ui,
    onSuccess: (made, ...rest) => {
      client.setQueryData<Announcement[]>(
        keys.bookAnnouncements(bookId),
        (old) => old && [made, ...old],
      );
      return ui.onSuccess?.(made, ...rest);
    },
  });
}

/** Deletes an announcement of the author's book; it leaves the list at once. */
export function useDeleteAnnouncement(bookId: number, ui: MutationCallbacks<unknown, number> = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/api/announcements/${id}`),
    ...ui,
    onSuccess: (answer, id, ...rest) => {
      client.setQueryData<Announcement[]>(
        keys.bookAnnouncements(bookId),
        (old) => old && old.filter((a) => a.id !== id),
      );
      return ui.onSuccess?.(answer, id, ...rest);
    },
  });
}
