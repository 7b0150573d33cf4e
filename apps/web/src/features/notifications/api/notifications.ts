import type { MarkReadResponse, Notification, NotificationList } from '@inkwell/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { paths } from '../../../lib/paths.ts';
import { keys } from '../../../lib/query-keys.ts';

const INBOX_SIZE = 20;

export const inboxQuery = () =>
  queryOptions({
    queryKey: keys.notifications,
    queryFn: ({ signal }) =>
      api.get<NotificationList>(`/api/my/notifications?limit=${INBOX_SIZE}`, signal),
    staleTime: 60_000,
  });

/** Marks every notification read; the inbox is asked again afterwards. */
export function useMarkAllRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<MarkReadResponse>('/api/my/notifications/read', {}),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.notifications }),
  });
}

/**
 * Where a notification leads: the new chapter, the chapter commented on (COMMENT, REPLY), the
 * announcement on its book's page (ANNOUNCEMENT, issue 20), or the new follower's page.
 */
export function notificationHref(
  n: Pick<Notification, 'type' | 'book_id' | 'chapter_id' | 'follower'> & {
    announcement_id?: number | null;
  },
): string | undefined {
  if (n.type === 'ANNOUNCEMENT' && n.book_id)
    return `${paths.book(n.book_id)}${n.announcement_id ? `#announcement-${n.announcement_id}` : ''}`;
  // CHAPTER, COMMENT and REPLY all lead to their chapter.
  if (n.type !== 'FOLLOW' && n.book_id && n.chapter_id)
    return paths.chapter(n.book_id, n.chapter_id);
  if (n.type === 'FOLLOW' && n.follower) return paths.author(n.follower);
  return undefined;
}
