import type { NotificationMessage } from '@inkwell/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useToasts } from '../../../components/toasts.tsx';
import {
  CHAPTER_NOTIFICATION_TOAST_MS,
  FOLLOW_NOTIFICATION_TOAST_MS,
} from '../../../lib/constants.ts';
import { keys } from '../../../lib/query-keys.ts';
import { useSession } from '../../../lib/session.tsx';
import { openLiveSocket } from '../../../lib/socket.ts';
import { notificationHref } from '../api/notifications.ts';

const LIVE_TYPES: readonly unknown[] = ['CHAPTER', 'FOLLOW', 'COMMENT', 'REPLY', 'ANNOUNCEMENT'];

const isNotification = (data: unknown): data is NotificationMessage =>
  !!data && typeof data === 'object' && LIVE_TYPES.includes((data as { type?: unknown }).type);

/**
 * The {base}/ws connection: open only while signed in, closed on logout or leaving. A new chapter
 * shows a 10 s toast linking to it, and so do a comment on one's chapter and a reply in one's
 * thread (issue 19), linking to the chapter, and an announcement on a followed book (issue 20),
 * linking to it; a new follower a 5 s toast linking to their page.
 */
export function LiveNotifications() {
  const { state } = useSession();
  const { push } = useToasts();
  const client = useQueryClient();
  const token = state.token;

  useEffect(() => {
    if (!token) return;
    // The token only says whether someone is signed in: the socket asks for a ticket itself.
    let lost = false;
    const socket = openLiveSocket('/ws', {
      // Notifications sent while the socket was away (a backend replaced, a bus outage) are in
      // the inbox but were pushed to no one: the bell asks for the inbox again once back.
      onStatus(status) {
        if (status === 'reconnecting') lost = true;
        if (status === 'open' && lost) {
          lost = false;
          void client.invalidateQueries({ queryKey: keys.notifications });
        }
      },
      onMessage(data) {
        if (!isNotification(data)) return;
        const href = notificationHref({
          book_id: null,
          chapter_id: null,
          follower: null,
          ...data,
        });
        if (data.type !== 'FOLLOW')
          push(data.message, {
            type: 'CHAPTER_UPDATE',
            href,
            timeout: CHAPTER_NOTIFICATION_TOAST_MS,
          });
        else push(data.message, { type: 'INFO', href, timeout: FOLLOW_NOTIFICATION_TOAST_MS });
        void client.invalidateQueries({ queryKey: keys.notifications });
        // A comment or reply arrived: the chapter's comments, if on screen, show it at once.
        if (data.type === 'COMMENT' || data.type === 'REPLY')
          void client.invalidateQueries({ queryKey: keys.chapterComments(data.chapter_id) });
        // A new chapter: its book's page and chapter list (the reader's Next, the link the toast
        // opens), the followed books' unread counts, the library's "x of y chapters" and the
        // authors' recent chapters.
        if (data.type === 'CHAPTER') {
          for (const queryKey of [
            keys.book(data.book_id),
            keys.followedBooks,
            keys.library,
            keys.authors,
          ])
            void client.invalidateQueries({ queryKey });
        }
        // An announcement (issue 20): its book's list, if on screen, shows it at once.
        if (data.type === 'ANNOUNCEMENT')
          void client.invalidateQueries({ queryKey: keys.bookAnnouncements(data.book_id) });
      },
    });
    return () => socket.close();
  }, [token, push, client]);

  return null;
}
