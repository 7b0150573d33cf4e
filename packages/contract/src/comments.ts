import { z } from 'zod';
import { Id, PathId, Timestamp } from './common.ts';
import {
  COMMENT_MAX_LENGTH,
  COMMENT_PAGE_MAX,
  COMMENT_PAGE_SIZE,
  COMMENT_SORTS,
  REPORT_REASON_MAX_LENGTH,
} from './constants.ts';

/*
 * Issue 19: comments on chapters and on their paragraphs, likes of chapters and comments, and
 * reports. The paths and fields are the contract.
 */

/** The writer of a comment, as a comment shows them. */
export const CommentUser = z
  .object({
    id: z.number(),
    username: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    avatar: z.string().nullable(),
  })
  .meta({ id: 'CommentUser' });
export type CommentUser = z.infer<typeof CommentUser>;

/**
 * A comment. `body` is sanitized HTML (the comment allowlist of `./html.ts`). A deleted comment
 * that still has replies stays as a placeholder: `deleted: true`, an empty body and no user.
 * `paragraph` is the 0-based index of the chapter's block element the comment is anchored to,
 * or null for a comment on the whole chapter. `liked` is the viewer's (false for a visitor);
 * `by_author` is true when the commenter wrote the book.
 */
export const Comment = z
  .object({
    id: z.number(),
    chapter_id: z.number(),
    parent_id: z.number().nullable(),
    paragraph: z.number().nullable(),
    body: z.string(),
    user: CommentUser.nullable(),
    created_at: Timestamp,
    edited_at: Timestamp.nullable(),
    deleted: z.boolean(),
    likes: z.number(),
    liked: z.boolean(),
    by_author: z.boolean(),
    reply_count: z.number(),
  })
  .meta({ id: 'Comment' });
export type Comment = z.infer<typeof Comment>;

export const CommentSort = z.enum(COMMENT_SORTS);
export type CommentSort = z.infer<typeof CommentSort>;

/** A paragraph index: the 0-based position of a block element in the chapter. */
export const ParagraphIndex = z.coerce.number().int().min(0).max(1_000_000);

/**
 * GET /api/chapters/{id}/comments: top-level comments, newest first unless `sort=oldest`.
 * `cursor` is the `next_cursor` of the previous page (opaque to clients).
 */
export const CommentListQuery = z.object({
  sort: CommentSort.default('newest'),
  limit: z.coerce.number().int().min(1).max(COMMENT_PAGE_MAX).default(COMMENT_PAGE_SIZE),
  cursor: z.string().max(200).optional(),
  paragraph: ParagraphIndex.optional(),
});
export type CommentListQuery = z.infer<typeof CommentListQuery>;

export const CommentList = z
  .object({ comments: z.array(Comment), next_cursor: z.string().nullable() })
  .meta({ id: 'CommentList' });
export type CommentList = z.infer<typeof CommentList>;

/** GET /api/comments/{id}/replies: every reply of a top-level comment, oldest first. */
export const CommentReplies = z
  .object({ comments: z.array(Comment) })
  .meta({ id: 'CommentReplies' });
export type CommentReplies = z.infer<typeof CommentReplies>;

/** GET /api/chapters/{id}/comment-counts: shown comments, in all and per paragraph ("N": count). */
export const CommentCounts = z
  .object({ total: z.number(), paragraphs: z.record(z.string(), z.number()) })
  .meta({ id: 'CommentCounts' });
export type CommentCounts = z.infer<typeof CommentCounts>;

const CommentBodyText = z
  .string()
  .max(COMMENT_MAX_LENGTH, `a comment is at most ${COMMENT_MAX_LENGTH} characters`);

/**
 * POST /api/chapters/{id}/comments. A reply to a reply joins the same top-level thread; a
 * reply takes its thread's paragraph, whatever it sends. A body with no visible text is refused.
 */
export const CreateCommentBody = z.object({
  body: CommentBodyText,
  parent_id: Id.nullish(),
  paragraph: ParagraphIndex.nullish(),
});
export type CreateCommentBody = z.infer<typeof CreateCommentBody>;

/** PUT /api/comments/{id}: the writer edits the body; `edited_at` is set. */
export const UpdateCommentBody = z.object({ body: CommentBodyText });
export type UpdateCommentBody = z.infer<typeof UpdateCommentBody>;

/** What a like or unlike of a chapter or a comment answers: the count now and the viewer's like. */
export const LikeState = z
  .object({ likes: z.number(), liked: z.boolean() })
  .meta({ id: 'LikeState' });
export type LikeState = z.infer<typeof LikeState>;

/** POST /api/comments/{id}/report. */
export const ReportCommentBody = z.object({
  reason: z.string().trim().min(1, 'say why you report this comment').max(REPORT_REASON_MAX_LENGTH),
});
export type ReportCommentBody = z.infer<typeof ReportCommentBody>;

export const CommentIdParams = z.object({ commentId: PathId });
