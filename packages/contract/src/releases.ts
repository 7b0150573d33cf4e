import { z } from 'zod';
import { Timestamp } from './common.ts';
import { ANNOUNCEMENT_BODY_MAX_LENGTH, ANNOUNCEMENT_TITLE_MAX_LENGTH } from './constants.ts';

/*
 * Issue 20: announcements, posts on a book that are not chapters (docs/decisions/0032). The
 * scheduling fields live on the chapter and book schemas (chapters.ts, books.ts).
 */

/** An announcement; `body` is sanitized HTML. */
export const Announcement = z
  .object({ id: z.number(), title: z.string(), body: z.string(), created_at: Timestamp })
  .meta({ id: 'Announcement' });
export type Announcement = z.infer<typeof Announcement>;

/** GET /api/books/{id}/announcements: newest first. */
export const AnnouncementsResponse = z
  .object({ announcements: z.array(Announcement) })
  .meta({ id: 'AnnouncementsResponse' });
export type AnnouncementsResponse = z.infer<typeof AnnouncementsResponse>;

/** POST /api/books/{id}/announcements (the book's author only). */
export const CreateAnnouncementBody = z.object({
  title: z.string().trim().min(1, 'title must not be empty').max(ANNOUNCEMENT_TITLE_MAX_LENGTH),
  body: z.string().trim().min(1, 'body must not be empty').max(ANNOUNCEMENT_BODY_MAX_LENGTH),
});
export type CreateAnnouncementBody = z.infer<typeof CreateAnnouncementBody>;

/** `{base}/ws`: the author of a followed book, or a followed author, posted an announcement. */
export const AnnouncementNotificationMessage = z
  .object({
    type: z.literal('ANNOUNCEMENT'),
    message: z.string(),
    book_id: z.number(),
    announcement_id: z.number(),
  })
  .meta({ id: 'AnnouncementNotificationMessage' });
