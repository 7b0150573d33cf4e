import {
  COMMENT_TOAST_INTERVAL_MS,
  type Comment,
  type CommentCounts,
  type CommentList,
  type CommentListQuery,
  type CreateCommentBody,
  type LikeState,
} from '@inkwell/contract';
import {
  canSeeChapter,
  isAuthorOf,
  isOperator as isOperatorBySetting,
  type ChapterFacts,
} from '../../access/policy.ts';
import type { AppContext, Viewer } from '../../context.ts';
import { writeTransaction } from '../../db/kysely.ts';
import { commentTextWithoutSpoilers, sanitizeComment } from '../../html/sanitize-comment.ts';
import { fromFlag, nowIso } from '../../lib/convert.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { toComment } from '../../presenters/comment.ts';
import { assertNotBlockedBy } from '../blocks/blocks.service.ts';
import { forgetCommentNotices, whoHears } from '../notifications/notifications.service.ts';
import { chapterBlockCount, getChapterForComments } from '../chapters/chapters.service.ts';
import * as comments from './comments.repository.ts';
import type { CommentHead } from './comments.repository.ts';

/** The longest excerpt of a comment a notification quotes (spoilers hidden). */
const EXCERPT_LENGTH = 100;

/** Operators are the usernames of ADMIN_USERNAMES (the rule: `access/policy.ts`). */
export function isOperator(ctx: Pick<AppContext, 'config'>, viewer: Viewer | null): boolean {
  return isOperatorBySetting(ctx.config.ADMIN_USERNAMES, viewer);
}

/** The cursor of a page is the last id it showed, opaque to clients (the bench starts pages anywhere with it). */
export const encodeCursor = (id: number) => Buffer.from(`c${id}`).toString('base64url');
function decodeCursor(cursor: string): number {
  const match = /^c([1-9]\d{0,9})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) throw badRequest('cursor is not one this API gave', 'cursor');
  return Number(match[1]);
}

function announceCommentsChanged(ctx: AppContext, chapterId: number): void {
  void ctx.events.publish({ type: 'comments.changed', chapterId });
}

/** GET /api/chapters/{id}/comments: a page of top-level comments of a chapter the viewer may open. */
export async function listComments(
  ctx: AppContext,
  viewer: Viewer | null,
  chapterId: number,
  query: CommentListQuery,
): Promise<CommentList> {
  const afterId = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  await getChapterForComments(ctx, viewer, chapterId);
  const rows = await comments.listTopLevel(ctx.db, viewer?.id ?? null, {
    chapterId,
    newestFirst: query.sort === 'newest',
    limit: query.limit,
    ...(afterId !== undefined && { afterId }),
    ...(query.paragraph !== undefined && { paragraph: query.paragraph }),
  });
  const page = rows.slice(0, query.limit);
  return {
    comments: page.map(toComment),
    next_cursor: rows.length > query.limit ? encodeCursor(page[page.length - 1]!.id) : null,
  };
}

/** A comment on a chapter the viewer may open, shown to them or not; 404 otherwise. */
async function commentInSight(ctx: AppContext, viewer: Viewer | null, commentId: number) {
  const head = await comments.findCommentHead(ctx.db, commentId);
  if (!head) throw notFound('Comment not found');
  const chapter = await getChapterForComments(ctx, viewer, head.chapter_id);
  return { head, chapter };
}

/** GET /api/comments/{id}/replies: the replies of a thread, oldest first. */
export async function listReplies(
  ctx: AppContext,
  viewer: Viewer | null,
  commentId: number,
): Promise<Comment[]> {
  const { head } = await commentInSight(ctx, viewer, commentId);
  // A reply has no replies of its own: its thread's are the ones asked for.
  const threadId = head.parent_id ?? head.id;
  return (await comments.listReplies(ctx.db, viewer?.id ?? null, threadId)).map(toComment);
}

/** GET /api/chapters/{id}/comment-counts: shown comments (replies included), per paragraph. */
export async function countComments(
  ctx: AppContext,
  viewer: Viewer | null,
  chapterId: number,
): Promise<CommentCounts> {
  await getChapterForComments(ctx, viewer, chapterId);
  const rows = await comments.countByParagraph(ctx.db, viewer?.id ?? null, chapterId);
  let total = 0;
  const paragraphs: Record<string, number> = {};
  for (const row of rows) {
    const count = Number(row.count);
    total += count;
    if (row.paragraph !== null) paragraphs[String(row.paragraph)] = count;
  }
  return { total, paragraphs };
}

/**
 * The sanitized body; 400 when nothing visible is left. Its length was bounded as sent
 * (COMMENT_MAX_LENGTH, by the contract's schema); sanitizing may lengthen it a little (entities,
 * `rel` on links), which is kept as it is.
 */
function cleanBody(body: string): string {
  const { html, text } = sanitizeComment(body);
  if (text.trim() === '') throw badRequest('A comment needs some text', 'body');
  return html;
}

/** A comment's text for notifications: spoilers hidden, whitespace collapsed, shortened. */
function excerptOf(html: string): string {
  const text = commentTextWithoutSpoilers(html).replace(/\s+/g, ' ').trim();
  return text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH - 1)}…` : text;
}

async function shownComment(ctx: AppContext, viewer: Viewer, id: number): Promise<Comment> {
  const row = await comments.findComment(ctx.db, viewer.id, id);
  if (!row) throw notFound('Comment not found');
  return toComment(row);
}

/**
 * POST /api/chapters/{id}/comments. The chapter must be one the viewer may open (404), with
 * comments not locked on it or its book (403), by someone its author did not block (403). A
 * reply to a reply joins its top-level thread, and takes the thread's paragraph.
 */
export async function createComment(
  ctx: AppContext,
  viewer: Viewer,
  chapterId: number,
  input: CreateCommentBody,
): Promise<Comment> {
  const chapter = await getChapterForComments(ctx, viewer, chapterId);
  if (fromFlag(chapter.comments_locked) || fromFlag(chapter.book_comments_locked))
    throw forbidden('Comments are locked here');
  await assertNotBlockedBy(ctx, chapter.author_id, viewer.id);
  const body = cleanBody(input.body);

  let parent: CommentHead | undefined;
  if (input.parent_id != null) {
    const named = await comments.findCommentHead(ctx.db, Number(input.parent_id));
    if (!named || named.chapter_id !== chapterId)
      throw badRequest('parent_id must name a comment of this chapter', 'parent_id');
    parent =
      named.parent_id === null ? named : await comments.findCommentHead(ctx.db, named.parent_id);
    if (!parent) throw badRequest('parent_id must name a comment of this chapter', 'parent_id');
  }
  const paragraph = parent ? parent.paragraph : (input.paragraph ?? null);
  if (!parent && paragraph !== null) {
    // One parse of the chapter per paragraph comment (they are rate limited): the anchor must exist.
    if (paragraph >= (await chapterBlockCount(ctx, chapterId)))
      throw badRequest('paragraph is beyond the last paragraph of the chapter', 'paragraph');
  }

  const id = await writeTransaction(ctx.db, (trx) =>
    comments.insertComment(trx, {
      chapterId,
      bookId: chapter.book_id,
      userId: viewer.id,
      parentId: parent?.id ?? null,
      paragraph,
      body,
      now: nowIso(),
    }),
  );
  if (id === null) throw badRequest('The comment you reply to has been deleted', 'parent_id');
  announceCommentsChanged(ctx, chapterId);

  await notifyOfComment(ctx, viewer, {
    id,
    body,
    chapter,
    thread: parent ?? null,
  });
  return shownComment(ctx, viewer, id);
}

/** At most one live COMMENT toast per author and chapter in this long (a token bucket of one). */
const TOAST_RATE = { burst: 1, perSecond: 1000 / COMMENT_TOAST_INTERVAL_MS };

/**
 * Who hears of a new comment. A new thread: the book's author (COMMENT), in the inbox every
 * time, live at most once a minute per chapter (counted in the shared limit store, so across
 * processes). A reply: the thread's writer, and the author if they wrote in the thread (REPLY,
 * live and in the inbox). Never the writer; nobody who blocked or muted them.
 */
async function notifyOfComment(
  ctx: AppContext,
  viewer: Viewer,
  comment: {
    id: number;
    body: string;
    chapter: ChapterFacts & { book_id: number; title: string; id: number };
    thread: CommentHead | null;
  },
): Promise<void> {
  const { chapter, thread } = comment;
  const candidates = new Set<number>();
  if (!thread) candidates.add(chapter.author_id);
  else {
    if (!fromFlag(thread.deleted)) candidates.add(thread.user_id);
    if (await comments.wroteInThread(ctx.db, chapter.author_id, thread.id))
      candidates.add(chapter.author_id);
  }
  candidates.delete(viewer.id);
  // News of a comment names its chapter: only those who may open the chapter hear of it. A
  // chapter unpublished after a reader's comment is the author's alone, title and all.
  for (const id of candidates) if (!canSeeChapter(chapter, { id })) candidates.delete(id);
  if (candidates.size === 0) return;
  const inbox = await whoHears(ctx, viewer.id, [...candidates]);
  if (inbox.length === 0) return;
  let live = inbox;
  if (!thread) {
    const toast = await ctx.limits.store.spend(
      `comment-toast:${chapter.author_id}:${chapter.id}`,
      TOAST_RATE,
      Date.now(),
    );
    if (!toast.allowed) live = [];
  }
  await ctx.events.publish({
    type: 'comment.posted',
    kind: thread ? 'REPLY' : 'COMMENT',
    commentId: comment.id,
    bookId: chapter.book_id,
    chapterId: chapter.id,
    chapterTitle: chapter.title,
    writerUsername: viewer.username,
    excerpt: excerptOf(comment.body),
    inbox,
    live,
  });
}

/** PUT /api/comments/{id}: the writer edits their own comment (anyone else 403). */
export async function updateComment(
  ctx: AppContext,
  viewer: Viewer,
  commentId: number,
  bodyInput: string,
): Promise<Comment> {
  const { head, chapter } = await commentInSight(ctx, viewer, commentId);
  if (fromFlag(head.deleted)) throw notFound('Comment not found');
  if (head.user_id !== viewer.id) throw forbidden('Only its writer may edit a comment');
  await assertNotBlockedBy(ctx, chapter.author_id, viewer.id);
  const body = cleanBody(bodyInput);
  await comments.updateBody(ctx.db, commentId, body, nowIso());
  announceCommentsChanged(ctx, head.chapter_id);
  return shownComment(ctx, viewer, commentId);
}

/**
 * DELETE /api/comments/{id}: for its writer, the book's author and operators (anyone else
 * 403). A top-level comment with replies stays as a placeholder; anything else goes, and a
 * placeholder whose last reply goes goes with it. Its open reports are resolved.
 */
export async function deleteComment(
  ctx: AppContext,
  viewer: Viewer,
  commentId: number,
): Promise<void> {
  const operator = isOperator(ctx, viewer);
  // Operators act on reports from anywhere, drafts included.
  const sight = operator ? null : await commentInSight(ctx, viewer, commentId);
  const head = sight ? sight.head : await comments.findCommentHead(ctx.db, commentId);
  if (!head || fromFlag(head.deleted)) throw notFound('Comment not found');
  if (sight && head.user_id !== viewer.id && !isAuthorOf(sight.chapter, viewer))
    throw forbidden("Only the comment's writer, the book's author or an operator may delete it");
  const outcome = await writeTransaction(ctx.db, async (trx) => {
    const done = await comments.deleteComment(trx, head.id);
    if (done === 'placeholder') await comments.resolveReportsOfComment(trx, head.id, nowIso());
    if (done !== 'gone') await forgetCommentNotices(trx, head.id);
    return done;
  });
  // Another delete of the same comment went first.
  if (outcome === 'gone') throw notFound('Comment not found');
  announceCommentsChanged(ctx, head.chapter_id);
}

/** POST and DELETE /api/comments/{id}/like: one like per reader, idempotent. */
export async function setCommentLike(
  ctx: AppContext,
  viewer: Viewer,
  commentId: number,
  like: boolean,
): Promise<LikeState> {
  const { head, chapter } = await commentInSight(ctx, viewer, commentId);
  if (fromFlag(head.deleted)) throw notFound('Comment not found');
  await assertNotBlockedBy(ctx, chapter.author_id, viewer.id);
  return writeTransaction(ctx.db, (trx) =>
    comments.setCommentLike(trx, viewer.id, commentId, like, nowIso()),
  );
}

/** POST /api/comments/{id}/report: any signed-in reader who sees the comment may report it. */
export async function reportComment(
  ctx: AppContext,
  viewer: Viewer,
  commentId: number,
  reason: string,
): Promise<void> {
  const { head } = await commentInSight(ctx, viewer, commentId);
  if (fromFlag(head.deleted)) throw notFound('Comment not found');
  if (head.user_id === viewer.id) throw badRequest('You cannot report your own comment');
  await comments.insertReport(ctx.db, {
    commentId,
    reporterId: viewer.id,
    reason,
    now: nowIso(),
  });
}
