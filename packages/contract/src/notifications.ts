import { z } from 'zod';
import { Id, Pagination, Timestamp } from './common.ts';

export const NOTIFICATION_TYPES = [
  'CHAPTER',
  'FOLLOW',
  'COMMENT',
  'REPLY',
  'ANNOUNCEMENT',
] as const;
export const NotificationType = z.enum(NOTIFICATION_TYPES);
export type NotificationType = z.infer<typeof NotificationType>;

/**
 * One entry of the inbox. CHAPTER entries carry book_id and chapter_id, FOLLOW entries carry
 * follower (the follower's username), COMMENT and REPLY entries book_id, chapter_id and
 * comment_id (issue 19), ANNOUNCEMENT entries book_id and announcement_id (issue 20); the fields
 * a type does not use are null.
 */
export const Notification = z
  .object({
    id: z.number(),
    type: NotificationType,
    message: z.string(),
    book_id: z.number().nullable(),
    chapter_id: z.number().nullable(),
    follower: z.string().nullable(),
    comment_id: z.number().nullable(),
    announcement_id: z.number().nullable(),
    is_read: z.boolean(),
    created_at: Timestamp,
  })
  .meta({ id: 'Notification' });
export type Notification = z.infer<typeof Notification>;

/** GET /api/my/notifications?limit&offset: newest first, with the viewer's unread total. */
export const NotificationListQuery = Pagination;
export const NotificationList = z
  .object({ notifications: z.array(Notification), unread_count: z.number() })
  .meta({ id: 'NotificationList' });
export type NotificationList = z.infer<typeof NotificationList>;

/** The most ids one mark-read call takes; a client marks a page at a time, or everything. */
export const MARK_READ_MAX_IDS = 500;

/**
 * POST /api/my/notifications/read: the given ids (the viewer's own; others are ignored), or all
 * of them when there are no ids or no body at all.
 */
export const MarkReadBody = z
  .object({ ids: z.array(Id).max(MARK_READ_MAX_IDS).optional() })
  .nullish();
export type MarkReadBody = z.infer<typeof MarkReadBody>;

export const MarkReadResponse = z
  .object({ detail: z.string(), marked: z.number(), unread_count: z.number() })
  .meta({ id: 'MarkReadResponse' });
export type MarkReadResponse = z.infer<typeof MarkReadResponse>;
