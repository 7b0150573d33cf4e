import type {
  MarkReadResponse,
  Notification,
  NotificationList,
  NotificationMessage,
} from '@inkwell/contract';
import type { AppContext, Viewer } from '../../context.ts';
import type { DbHandle } from '../../db/kysely.ts';
import { fromFlag, nowIso } from '../../lib/convert.ts';
import type { DomainEvent } from '../../realtime/events.ts';
import * as notifications from './notifications.repository.ts';

/** The live message an event sends (SPEC section 3), or null for events that notify no one. */
export function notificationFor(event: DomainEvent): NotificationMessage | null {
  switch (event.type) {
    case 'chapter.published':
      return {
        type: 'CHAPTER',
        message: `New chapter of "${event.bookTitle}" by ${event.authorUsername}: ${event.chapterTitle}`,
        book_id: event.bookId,
        chapter_id: event.chapterId,
      };
    case 'announcement.posted':
      return {
        type: 'ANNOUNCEMENT',
        message: `Announcement on "${event.bookTitle}" by ${event.authorUsername}: ${event.title}`,
        book_id: event.bookId,
        announcement_id: event.announcementId,
      };
    case 'author.followed':
      return {
        type: 'FOLLOW',
        message: `${event.followerUsername} is now following you`,
        follower: event.followerUsername,
      };
    case 'comment.posted':
      return {
        type: event.kind,
        message:
          event.kind === 'COMMENT'
            ? `${event.writerUsername} commented on "${event.chapterTitle}": ${event.excerpt}`
            : `${event.writerUsername} replied on "${event.chapterTitle}": ${event.excerpt}`,
        book_id: event.bookId,
        chapter_id: event.chapterId,
        comment_id: event.commentId,
      };
    default:
      return null;
  }
}

/**
 * Of the people a user's action would notify, those who hear of it: not the ones who blocked or
 * muted that user (issue 19: muted and blocked users notify no one), nor the ones that user
 * blocked (who get no notification of the blocker's).
 */
export async function whoHears(
  ctx: Pick<AppContext, 'db'>,
  actorId: number,
  candidates: readonly number[],
): Promise<number[]> {
  const silenced = new Set(await notifications.silencedBy(ctx.db, actorId, candidates));
  return candidates.filter((id) => id !== actorId && !silenced.has(id));
}

/** The shortest time between two FOLLOW notifications of one follower to one author. */
const FOLLOW_NOTICE_INTERVAL_MS = 24 * 60 * 60 * 1000;

/**
 * Writes the inbox rows of a notifying event and answers who got one. The event bus calls this
 * on the publishing process only, before the event leaves it (see realtime/bus.ts): so each
 * event is stored exactly once however many processes deliver it, the stored rows survive a
 * Redis outage, and a client that refetches its inbox on a live push already finds the row.
 */
export async function storeNotifications(
  ctx: Pick<AppContext, 'db'>,
  event: DomainEvent,
): Promise<{ recipients: number[] } | undefined> {
  const message = notificationFor(event);
  if (!message) return undefined;
  const content = {
    type: message.type,
    message: message.message,
    book_id: 'book_id' in message ? message.book_id : null,
    chapter_id: 'chapter_id' in message ? message.chapter_id : null,
    follower: message.type === 'FOLLOW' ? message.follower : null,
    comment_id: 'comment_id' in message ? message.comment_id : null,
    announcement_id: 'announcement_id' in message ? message.announcement_id : null,
  };
  const now = nowIso();
  if (event.type === 'comment.posted') {
    await notifications.insertForUsers(ctx.db, event.inbox, content, now);
    return { recipients: event.live };
  }
  if (
    (event.type === 'chapter.published' || event.type === 'announcement.posted') &&
    event.inboxWritten
  ) {
    return { recipients: event.inboxWritten };
  }
  if (event.type === 'chapter.published' || event.type === 'announcement.posted') {
    return {
      recipients: await notifications.insertForFollowers(
        ctx.db,
        { authorId: event.authorId, bookId: event.bookId },
        content,
        now,
      ),
    };
  }
  if (event.type === 'author.followed') {
    // Muted and blocked users notify no one (issue 19). A blocked user cannot follow at all;
    // a muted one may, silently.
    if ((await whoHears(ctx, event.followerId, [event.authorId])).length === 0) {
      return { recipients: [] };
    }
    // At most one per follower per author per day: following again after an unfollow within
    // the day is neither stored nor pushed.
    const dayAgo = new Date(Date.parse(now) - FOLLOW_NOTICE_INTERVAL_MS).toISOString();
    if (
      await notifications.hasFollowNotificationSince(
        ctx.db,
        event.authorId,
        event.followerUsername,
        dayAgo,
      )
    ) {
      return { recipients: [] };
    }
    const stored = await notifications.insertForUser(ctx.db, event.authorId, content, now);
    return { recipients: stored ? [event.authorId] : [] };
  }
  return undefined;
}

export async function listNotifications(
  ctx: AppContext,
  viewer: Viewer,
  page: { limit: number; offset: number },
): Promise<NotificationList> {
  const [rows, unread] = await Promise.all([
    notifications.listForUser(ctx.db, viewer.id, page),
    notifications.countUnread(ctx.db, viewer.id),
  ]);
  return { notifications: rows.map(toNotification), unread_count: unread };
}

/** Marks the viewer's notifications read (the given ids, or all); ids of other users change nothing. */
export async function markRead(
  ctx: AppContext,
  viewer: Viewer,
  ids?: number[],
): Promise<MarkReadResponse> {
  const marked = ids && ids.length === 0 ? 0 : await notifications.markRead(ctx.db, viewer.id, ids);
  const unread = await notifications.countUnread(ctx.db, viewer.id);
  return {
    detail: `Marked ${marked} notification${marked === 1 ? '' : 's'} read`,
    marked,
    unread_count: unread,
  };
}

type NotificationRow = Awaited<ReturnType<typeof notifications.listForUser>>[number];

function toNotification(row: NotificationRow): Notification {
  return { ...row, is_read: fromFlag(row.is_read) };
}

/**
 * Takes back the notices of a comment that was deleted (in the delete's transaction): their
 * message quotes its text, which its writer, the author or an operator has just removed.
 */
export async function forgetCommentNotices(db: DbHandle, commentId: number): Promise<void> {
  await notifications.deleteCommentNotices(db, commentId);
}
