import { z } from 'zod';
import { Book } from './books.ts';
import { Comment, CommentUser } from './comments.ts';
import { PathId, Timestamp } from './common.ts';
import { Username } from './accounts.ts';

/*
 * Issue 19: follows of books, blocks and mutes, and the operators' moderation. The issue's
 * paths and fields are kept exactly; what is marked "ours" is added beyond it.
 */

/** POST and DELETE /api/books/{id}/follow: the state after the call (ours: the issue asks 2xx). */
export const BookFollowState = z
  .object({ book_id: z.number(), following: z.boolean(), followers: z.number() })
  .meta({ id: 'BookFollowState' });
export type BookFollowState = z.infer<typeof BookFollowState>;

/** An entry of GET /api/my/followed-books: a book card, its published chapters and the unread. */
export const FollowedBook = Book.extend({ chapters: z.number(), unread: z.number() }).meta({
  id: 'FollowedBook',
});
export type FollowedBook = z.infer<typeof FollowedBook>;

export const FollowedBooks = z
  .object({ books: z.array(FollowedBook) })
  .meta({ id: 'FollowedBooks' });
export type FollowedBooks = z.infer<typeof FollowedBooks>;

/** A user on the viewer's block or mute list: as a comment shows them, and since when. */
export const ListedUser = CommentUser.extend({
  /** When the viewer blocked or muted them. */
  since: Timestamp,
}).meta({ id: 'ListedUser' });
export type ListedUser = z.infer<typeof ListedUser>;

/** GET /api/my/blocks and GET /api/my/mutes. */
export const UserList = z.object({ users: z.array(ListedUser) }).meta({ id: 'UserList' });
export type UserList = z.infer<typeof UserList>;

/** POST /api/my/blocks and POST /api/my/mutes. */
export const UsernameBody = z.object({ username: Username });
export type UsernameBody = z.infer<typeof UsernameBody>;

export const UsernameParams = z.object({ username: z.string().min(1).max(100) });

/**
 * Ours: the operators' reports page (operators are the usernames of ADMIN_USERNAMES).
 * GET /api/admin/reports lists open reports, oldest first, each with the reported comment
 * (shown whatever blocks or mutes would hide) and where it is.
 */
export const CommentReport = z
  .object({
    id: z.number(),
    reason: z.string(),
    created_at: Timestamp,
    reporter: z.string(),
    comment: Comment,
    book_id: z.number(),
    book_title: z.string(),
    chapter_title: z.string(),
    /** The reported comment's writer, even when the comment is a deleted placeholder. */
    author_username: z.string(),
    author_suspended: z.boolean(),
  })
  .meta({ id: 'CommentReport' });
export type CommentReport = z.infer<typeof CommentReport>;

export const CommentReports = z
  .object({ reports: z.array(CommentReport) })
  .meta({ id: 'CommentReports' });
export type CommentReports = z.infer<typeof CommentReports>;

export const ReportIdParams = z.object({ reportId: PathId });
