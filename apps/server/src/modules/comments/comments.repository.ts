import { sql } from 'kysely';
import {
  commentCountedFor,
  commentShownTo,
  threadShownTo,
  type ViewerId,
} from '../../access/visibility.ts';
import type { DbHandle } from '../../db/kysely.ts';

/**
 * Comments (issue 19). Every read of comments for a viewer filters with `commentShownTo`, so a
 * user the book's author blocked, or one the viewer muted, is never listed; `liked` is the
 * viewer's own like, 0 for a visitor.
 */
function commentSelect(db: DbHandle, viewerId: ViewerId) {
  return db
    .selectFrom('comments')
    .innerJoin('books', 'books.id', 'comments.book_id')
    .innerJoin('users', 'users.id', 'comments.user_id')
    .select([
      'comments.id',
      'comments.chapter_id',
      'comments.book_id',
      'comments.parent_id',
      'comments.paragraph',
      'comments.body',
      'comments.deleted',
      'comments.like_count',
      'comments.reply_count',
      'comments.created_at',
      'comments.edited_at',
      'comments.user_id',
      'books.author_id',
      'users.username',
      'users.first_name',
      'users.last_name',
      'users.avatar',
    ])
    .select(
      viewerId === null
        ? sql<number>`0`.as('liked')
        : sql<number>`case when exists (select 1 from comment_likes
            where comment_likes.comment_id = comments.id
              and comment_likes.user_id = ${viewerId}) then 1 else 0 end`.as('liked'),
    );
}

/** One page of a chapter's top-level comments, keyset-paged on id (one row more than asked). */
export async function listTopLevel(
  db: DbHandle,
  viewerId: ViewerId,
  page: {
    chapterId: number;
    newestFirst: boolean;
    limit: number;
    afterId?: number;
    paragraph?: number;
  },
) {
  return commentSelect(db, viewerId)
    .where('comments.chapter_id', '=', page.chapterId)
    .where('comments.parent_id', 'is', null)
    .where(commentShownTo(viewerId))
    .$if(page.paragraph !== undefined, (q) => q.where('comments.paragraph', '=', page.paragraph!))
    .$if(page.afterId !== undefined, (q) =>
      q.where('comments.id', page.newestFirst ? '<' : '>', page.afterId!),
    )
    .orderBy('comments.id', page.newestFirst ? 'desc' : 'asc')
    .limit(page.limit + 1)
    .execute();
}

/** Every shown reply of a top-level comment, oldest first (none when the thread is hidden). */
export async function listReplies(db: DbHandle, viewerId: ViewerId, parentId: number) {
  return commentSelect(db, viewerId)
    .where('comments.parent_id', '=', parentId)
    .where(commentShownTo(viewerId))
    .where(threadShownTo(viewerId))
    .orderBy('comments.id', 'asc')
    .execute();
}

/** A comment as the viewer sees it (their like), whether or not blocks and mutes would hide it. */
export async function findComment(db: DbHandle, viewerId: ViewerId, id: number) {
  return commentSelect(db, viewerId).where('comments.id', '=', id).executeTakeFirst();
}

/** Counted comments of a chapter (replies included) per paragraph (null: the chapter). */
export async function countByParagraph(db: DbHandle, viewerId: ViewerId, chapterId: number) {
  return db
    .selectFrom('comments')
    .innerJoin('books', 'books.id', 'comments.book_id')
    .select(['comments.paragraph', sql<number | string>`count(*)`.as('count')])
    .where('comments.chapter_id', '=', chapterId)
    .where(commentCountedFor(viewerId))
    .groupBy('comments.paragraph')
    .execute();
}

/** What the write rules need of a comment: where it is and whose it is. */
export async function findCommentHead(db: DbHandle, id: number) {
  return db
    .selectFrom('comments')
    .select([
      'id',
      'chapter_id',
      'book_id',
      'user_id',
      'parent_id',
      'paragraph',
      'deleted',
      'reply_count',
    ])
    .where('id', '=', id)
    .executeTakeFirst();
}

export type CommentHead = NonNullable<Awaited<ReturnType<typeof findCommentHead>>>;

/**
 * Inserts a comment and, for a reply, counts it on its thread; answers the new id, or null when
 * the thread is no longer there.
 */
export async function insertComment(
  db: DbHandle,
  comment: {
    chapterId: number;
    bookId: number;
    userId: number;
    parentId: number | null;
    paragraph: number | null;
    body: string;
    now: string;
  },
): Promise<number | null> {
  // A reply counts itself on its thread first: the update takes the thread's row (PostgreSQL
  // locks it), so a delete of the thread racing with it either sees the reply and leaves a
  // placeholder, or went first and the reply is refused here, never left without its thread.
  if (comment.parentId !== null && !(await addReplies(db, comment.parentId, 1))) return null;
  const { id } = await db
    .insertInto('comments')
    .values({
      chapter_id: comment.chapterId,
      book_id: comment.bookId,
      user_id: comment.userId,
      parent_id: comment.parentId,
      paragraph: comment.paragraph,
      body: comment.body,
      created_at: comment.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Moves a thread's reply count; answers whether the thread was there. */
async function addReplies(db: DbHandle, id: number, delta: 1 | -1): Promise<boolean> {
  const result = await db
    .updateTable('comments')
    .set((eb) => ({ reply_count: eb('reply_count', '+', delta) }))
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function updateBody(db: DbHandle, id: number, body: string, now: string) {
  await db.updateTable('comments').set({ body, edited_at: now }).where('id', '=', id).execute();
}

/**
 * Deletes a comment, deciding in the write itself (each step's condition is checked on the row
 * as it is then, so two deletes or a delete and a reply racing cannot both act on an old view):
 * - a comment without replies goes (its likes and reports with it, by the foreign keys) and is
 *   uncounted on its thread; a placeholder thread whose last reply this was goes too;
 * - a top-level comment with replies stays as a placeholder without text or likes.
 * Answers what happened, or 'gone' when there was nothing left to delete.
 */
export async function deleteComment(
  db: DbHandle,
  id: number,
): Promise<'removed' | 'placeholder' | 'gone'> {
  const removed = await db
    .deleteFrom('comments')
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .where('reply_count', '=', 0)
    .returning('parent_id')
    .executeTakeFirst();
  if (removed) {
    if (removed.parent_id !== null) {
      await addReplies(db, removed.parent_id, -1);
      await db
        .deleteFrom('comments')
        .where('id', '=', removed.parent_id)
        .where('deleted', '=', 1)
        .where('reply_count', '<=', 0)
        .execute();
    }
    return 'removed';
  }
  const kept = await db
    .updateTable('comments')
    .set({ deleted: 1, body: '', like_count: 0 })
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .where('reply_count', '>', 0)
    .executeTakeFirst();
  if (Number(kept.numUpdatedRows) === 0) return 'gone';
  await db.deleteFrom('comment_likes').where('comment_id', '=', id).execute();
  return 'placeholder';
}

/** Whether `userId` wrote the top-level comment `threadId` or one of its replies. */
export async function wroteInThread(db: DbHandle, userId: number, threadId: number) {
  const row = await db
    .selectFrom('comments')
    .select('id')
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('id', '=', threadId), eb('parent_id', '=', threadId)]))
    .where('deleted', '=', 0)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Adds or removes the user's like and keeps the count; answers the count and the like now. */
export async function setCommentLike(
  db: DbHandle,
  userId: number,
  commentId: number,
  like: boolean,
  now: string,
): Promise<{ likes: number; liked: boolean }> {
  let changed: boolean;
  if (like) {
    const row = await db
      .insertInto('comment_likes')
      .values({ user_id: userId, comment_id: commentId, created_at: now })
      .onConflict((oc) => oc.doNothing())
      .returning('user_id')
      .executeTakeFirst();
    changed = row !== undefined;
  } else {
    const result = await db
      .deleteFrom('comment_likes')
      .where('user_id', '=', userId)
      .where('comment_id', '=', commentId)
      .executeTakeFirst();
    changed = Number(result.numDeletedRows) > 0;
  }
  if (changed) {
    await db
      .updateTable('comments')
      .set((eb) => ({ like_count: eb('like_count', '+', like ? 1 : -1) }))
      .where('id', '=', commentId)
      .execute();
  }
  const { like_count } = await db
    .selectFrom('comments')
    .select('like_count')
    .where('id', '=', commentId)
    .executeTakeFirstOrThrow();
  return { likes: like_count, liked: like };
}

// Reports -------------------------------------------------------------------------------------

/**
 * Files a report, unless this reporter already has an open one on the comment (the partial
 * unique index comment_reports_open_uq decides, also between two reports racing).
 */
export async function insertReport(
  db: DbHandle,
  report: { commentId: number; reporterId: number; reason: string; now: string },
) {
  await db
    .insertInto('comment_reports')
    .values({
      comment_id: report.commentId,
      reporter_id: report.reporterId,
      reason: report.reason,
      created_at: report.now,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Open reports, oldest first, with the comment (whatever would hide it) and where it is. */
export async function listOpenReports(db: DbHandle, viewerId: number, limit: number) {
  return commentSelect(db, viewerId)
    .innerJoin('comment_reports', 'comment_reports.comment_id', 'comments.id')
    .innerJoin('users as reporters', 'reporters.id', 'comment_reports.reporter_id')
    .innerJoin('chapters', 'chapters.id', 'comments.chapter_id')
    .select([
      'comment_reports.id as report_id',
      'comment_reports.reason',
      'comment_reports.created_at as reported_at',
      'reporters.username as reporter',
      'books.title as book_title',
      'chapters.title as chapter_title',
      'users.suspended_at',
    ])
    .where('comment_reports.resolved_at', 'is', null)
    .orderBy('comment_reports.id', 'asc')
    .limit(limit)
    .execute();
}

/** Closes the open report; answers whether there was one. */
export async function resolveReport(db: DbHandle, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('comment_reports')
    .set({ resolved_at: now })
    .where('id', '=', id)
    .where('resolved_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function resolveReportsOfComment(db: DbHandle, commentId: number, now: string) {
  await db
    .updateTable('comment_reports')
    .set({ resolved_at: now })
    .where('comment_id', '=', commentId)
    .where('resolved_at', 'is', null)
    .execute();
}

/** Closes the open reports of every comment the user wrote (they were suspended). */
export async function resolveReportsOfWriter(db: DbHandle, userId: number, now: string) {
  await db
    .updateTable('comment_reports')
    .set({ resolved_at: now })
    .where('resolved_at', 'is', null)
    .where('comment_id', 'in', (eb) =>
      eb.selectFrom('comments').select('comments.id').where('comments.user_id', '=', userId),
    )
    .execute();
}
