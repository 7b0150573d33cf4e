import {
  DEFAULT_CHAPTER_CONTENT,
  DEFAULT_CHAPTER_TITLE,
  MAX_CHAPTERS_PER_BOOK,
  type Chapter,
  type ChapterSummary,
  type CreateChapterBody,
  type ReorderChaptersBody,
  type RevisionKind,
  type UpdateChapterBody,
} from '@inkwell/contract';
import type { AppContext, Viewer } from '../../context.ts';
import type { DbHandle } from '../../db/kysely.ts';
import {
  countWords,
  isBlankHtml,
  sanitizeContent,
  sanitizeContentWithWords,
  textOfSanitized,
} from '../../html/sanitize.ts';
import {
  asksToPublish,
  assertCanSeeChapter,
  assertOwnsBook,
  assertSchedulable,
  isAuthorOf,
  isPublicBook,
  isPublishedChapter,
} from '../../access/policy.ts';
import { nowIso, toFlag } from '../../lib/convert.ts';
import { uniqueTitle } from '../../lib/unique-title.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { toChapter, toChapterSummary } from '../../presenters/chapter.ts';
import { writeStatement, writeTransaction, type Db } from '../../db/kysely.ts';
import {
  announceBookChanged,
  getOwnedBook,
  getVisibleBookAccess,
  markBookChanged,
} from '../books/books.service.ts';
import { assertNotBlockedBy } from '../blocks/blocks.service.ts';
import { storeNotifications } from '../notifications/notifications.service.ts';
import type { DomainEvent } from '../../realtime/events.ts';
import { countTopLevelBlocks } from '../../html/blocks.ts';
import * as chapters from './chapters.repository.ts';
import type { ContentColumns } from './chapters.repository.ts';

export type { ContentColumns };

/** Who writes a chapter: the signed-in author, or the release acting for them (issue 20). */
type Author = Pick<Viewer, 'id' | 'username'>;

/** A chapter the viewer may open. Anything else answers 404, so drafts look like nothing at all. */
export async function getVisibleChapter(ctx: AppContext, viewer: Viewer | null, chapterId: number) {
  return assertCanSeeChapter(await chapters.findChapter(ctx.db, chapterId), viewer);
}

/**
 * A chapter to read, with its likes, and for a signed-in viewer whether they liked it. A
 * visitor's answer is the same for every visitor (the read cache keeps it; its count is at most
 * READ_CACHE_MAX_AGE_SECONDS old, as likes publish no event); `liked` only ever goes to a signed-in
 * viewer, whose answers are never kept.
 */
export async function getChapter(
  ctx: AppContext,
  viewer: Viewer | null,
  chapterId: number,
): Promise<Chapter> {
  const chapter = assertCanSeeChapter(
    await chapters.findChapterToRead(ctx.db, chapterId, viewer?.id ?? null),
    viewer,
  );
  const { likes, liked } = chapter;
  return toChapter(chapter, viewer ? { likes, liked } : { likes }, isAuthorOf(chapter, viewer));
}

/**
 * What comments need of a chapter the viewer may open (404 otherwise): its book and author,
 * and its locks and its book's.
 */
export async function getChapterForComments(
  ctx: AppContext,
  viewer: Viewer | null,
  chapterId: number,
) {
  return assertCanSeeChapter(await chapters.findChapterForComments(ctx.db, chapterId), viewer);
}

/** The number of top-level blocks of a chapter's content (what a paragraph index counts). */
export async function chapterBlockCount(ctx: AppContext, chapterId: number): Promise<number> {
  const content = await chapters.findChapterContent(ctx.db, chapterId);
  return content === undefined ? 0 : countTopLevelBlocks(content);
}

/**
 * Likes (or unlikes) a chapter the viewer may open; one like per reader, a repeat changes
 * nothing. A user the book's author blocked gets 403. Answers the count and the viewer's like.
 */
export async function setChapterLike(
  ctx: AppContext,
  viewer: Viewer,
  chapterId: number,
  like: boolean,
): Promise<{ likes: number; liked: boolean }> {
  const chapter = await getChapterForComments(ctx, viewer, chapterId);
  await assertNotBlockedBy(ctx, chapter.author_id, viewer.id);
  await chapters.setChapterLike(ctx.db, viewer.id, chapterId, like, nowIso());
  const state = await chapters.chapterLikes(ctx.db, chapterId, viewer.id);
  return { likes: state.likes, liked: state.liked };
}

async function listAll(db: DbHandle, bookId: number): Promise<ChapterSummary[]> {
  return (await chapters.listChapters(db, bookId, { includeDrafts: true })).map((row) =>
    toChapterSummary(row, true),
  );
}

/** The reader's list: published chapters of a visible book; its author also sees the drafts. */
export async function listBookChapters(ctx: AppContext, viewer: Viewer | null, bookId: number) {
  const book = await getVisibleBookAccess(ctx, viewer, bookId);
  const includeDrafts = isAuthorOf(book, viewer);
  return (await chapters.listChapters(ctx.db, bookId, { includeDrafts })).map((row) =>
    toChapterSummary(row, includeDrafts),
  );
}

/** The workspace list: every chapter, drafts included, for the book's author only. */
export async function listAuthorChapters(ctx: AppContext, viewer: Viewer, bookId: number) {
  await getOwnedBook(ctx, viewer, bookId);
  return listAll(ctx.db, bookId);
}

/**
 * Writes that move chapters (create, reorder, delete) run here: one transaction holding the
 * book's write lock, for the book's author only (404 when they cannot see it, 403 when it is not
 * theirs), so chapter_order stays 1..n. On SQLite the transaction may share its commit with other
 * writes (writeTransaction). Updates move nothing and check ownership in their UPDATE instead.
 */
async function writeChaptersOf<T>(
  ctx: AppContext,
  viewer: Viewer,
  bookId: number,
  work: (trx: DbHandle) => Promise<T>,
): Promise<T> {
  return writeTransaction(ctx.db, async (trx) => {
    assertOwnsBook(await chapters.lockBook(trx, bookId), viewer);
    return work(trx);
  });
}

/** What empty content is stored as, computed once. */
const DEFAULT_CONTENT_COLUMNS: Readonly<ContentColumns> = Object.freeze({
  content: DEFAULT_CHAPTER_CONTENT,
  word_count: countWords(textOfSanitized(DEFAULT_CHAPTER_CONTENT)),
});

/** Sanitized content with its word count; empty content gets the default. */
export function contentColumns(html: string): ContentColumns {
  // The editor's HTML is usually already in the allowlisted form: then one pass checks it and
  // counts its words, without parsing it (docs/decisions/0014-canonical-html-fast-path.md).
  const { html: content, words, blank } = sanitizeContentWithWords(html);
  return blank ? DEFAULT_CONTENT_COLUMNS : { content, word_count: words };
}

/**
 * The book's chapters in order (read under the book's lock), when it has room for one more;
 * 400 when it holds the most a book may. For every write that adds a chapter to a book.
 */
async function outlineWithRoom(trx: DbHandle, bookId: number) {
  const outline = await chapters.chapterOutline(trx, bookId);
  if (outline.length >= MAX_CHAPTERS_PER_BOOK) {
    throw badRequest(`A book holds at most ${MAX_CHAPTERS_PER_BOOK} chapters`);
  }
  return outline;
}

/**
 * Appends chapters, already sanitized (`contentColumns`), as drafts at `firstOrder` onwards, in
 * one transaction under the book's write lock: an import's batch. False when the book is gone
 * (deleted while the import ran).
 */
export async function appendChapters(
  db: DbHandle,
  bookId: number,
  firstOrder: number,
  rows: ReadonlyArray<ContentColumns & { title: string }>,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!(await chapters.lockBook(trx, bookId))) return false;
    const now = nowIso();
    for (const [i, row] of rows.entries())
      await chapters.insertChapter(trx, {
        ...row,
        bookId,
        order: firstOrder + i,
        now,
        saveKind: 'import',
      });
    return true;
  });
}

export async function createChapter(
  ctx: AppContext,
  viewer: Viewer,
  bookId: number,
  input: CreateChapterBody,
): Promise<Chapter> {
  await getOwnedBook(ctx, viewer, bookId);
  if (input.book_id != null && input.book_id !== bookId) {
    throw badRequest('book_id must name the book in the path', 'book_id');
  }
  const content = contentColumns(input.content ?? '');
  const id = await writeChaptersOf(ctx, viewer, bookId, async (trx) => {
    const outline = await outlineWithRoom(trx, bookId);
    const title =
      input.title ||
      uniqueTitle(
        DEFAULT_CHAPTER_TITLE,
        outline.map((c) => c.title),
      );
    const end = outline.length + 1;
    const order = Math.min(input.chapter_order ?? end, end);
    await chapters.shiftChapters(trx, bookId, order, 1);
    const now = nowIso();
    return chapters.insertChapter(trx, { ...content, bookId, title, order, now, saveKind: 'save' });
  });
  // A draft is invisible, but inserting it before others renumbers the published ones.
  announceBookChanged(ctx, bookId);
  return getChapter(ctx, viewer, id);
}

/**
 * The ids of `items` in their new reading order. The list must hold every chapter of the book
 * exactly once; equal chapter_order values keep the order they were sent in.
 */
function newReadingOrder(
  bookChapterIds: readonly number[],
  items: ReorderChaptersBody['chapters'],
): number[] {
  const known = new Set(bookChapterIds);
  const seen = new Set<number>();
  for (const { id } of items) {
    if (!known.has(id)) throw badRequest(`Chapter ${id} is not a chapter of this book`, 'chapters');
    if (seen.has(id)) throw badRequest(`Chapter ${id} is listed more than once`, 'chapters');
    seen.add(id);
  }
  if (seen.size !== known.size)
    throw badRequest('The list must name every chapter of the book exactly once', 'chapters');
  return [...items].sort((a, b) => a.chapter_order - b.chapter_order).map((item) => item.id);
}

export async function reorderChapters(
  ctx: AppContext,
  viewer: Viewer,
  bookId: number,
  items: ReorderChaptersBody['chapters'],
): Promise<ChapterSummary[]> {
  await writeChaptersOf(ctx, viewer, bookId, async (trx) => {
    const outline = await chapters.chapterOutline(trx, bookId);
    const current = new Map(outline.map((c) => [c.id, c.chapter_order]));
    const ids = newReadingOrder([...current.keys()], items);
    const moved = [...ids.entries()].filter(([index, id]) => current.get(id) !== index + 1);
    for (const [index, id] of moved) await chapters.setChapterOrder(trx, id, index + 1);
    // The order is the book's: its own row says it changed (books.isUntouchedImport reads it).
    if (moved.length > 0) await markBookChanged(trx, bookId);
  });
  announceBookChanged(ctx, bookId);
  return listAll(ctx.db, bookId);
}

/**
 * Why an update of a chapter matched nothing, in the order the rules are checked: the book is
 * not the viewer's to see (404) or to change (403), the chapter is not in it (404), or the
 * version the edit started from is stale (409). Unless the chapter already holds exactly what
 * the update asks for: then the update is done, and the chapter as it is answers it. That is a
 * save sent again after its first attempt was committed but never answered (a load balancer
 * retries a PUT whose process died after the commit, decision 0028; a client retries after a
 * lost answer): its version is stale only because of itself (the chapter is exactly one save
 * ahead of it), and nothing anyone wrote is lost. Two saves ahead, someone else saved in
 * between: that stays a conflict even if the text happens to match.
 */
async function refusedUpdate(
  trx: DbHandle,
  viewer: Author,
  target: { bookId: number; chapterId: number; version?: number; schedules: boolean },
  changes: chapters.ChapterChanges,
): Promise<AppError | chapters.ChapterRow> {
  const { bookId, chapterId, version } = target;
  assertOwnsBook(await chapters.lockBook(trx, bookId), viewer);
  const head = await chapters.findChapterHead(trx, chapterId);
  if (!head || head.book_id !== bookId) return notFound('Chapter not found');
  if (target.schedules) assertSchedulable(head);
  // Only a save exactly one ahead can be this one's own: only then is the (long) content read.
  if (version !== undefined && head.version === version + 1) {
    const current = await chapters.findChapter(trx, chapterId);
    if (current && alreadyHolds(current, changes)) return current;
  }
  return conflict('This chapter was changed elsewhere');
}

/** What a retried save is compared on: columns compared as stored, and flags compared as booleans. */
const COMPARED_COLUMNS = ['content', 'title', 'publish_at', 'note_before', 'note_after'] as const;
const COMPARED_FLAGS = ['is_published', 'comments_locked'] as const;

/** Whether `changes` change something, and the chapter already holds every one of them. */
function alreadyHolds(current: chapters.ChapterRow, changes: chapters.ChapterChanges): boolean {
  const named = (key: keyof chapters.ChapterChanges) => changes[key] !== undefined;
  if (![...COMPARED_COLUMNS, ...COMPARED_FLAGS].some(named)) return false;
  return (
    COMPARED_COLUMNS.every((key) => !named(key) || changes[key] === current[key]) &&
    COMPARED_FLAGS.every((key) => !named(key) || Boolean(changes[key]) === Boolean(current[key]))
  );
}

/**
 * Whether an update may change what visitors see: publishing or unpublishing does, and so does
 * any edit of a published chapter. Editing a draft does not (drafts are never public, and no
 * public answer counts them), so its many autosaves leave the public answers as they were.
 */
function changesWhatReadersSee(input: UpdateChapterBody, updated: Chapter): boolean {
  // A schedule moves the book page's "next chapter" (when the author shows it).
  return (
    input.is_published !== undefined ||
    input.publish_at !== undefined ||
    isPublishedChapter(updated)
  );
}

/** An author's note as stored: sanitized like chapter text, and '' when it holds no text. */
function noteColumn(html: string): string {
  const sanitized = sanitizeContent(html);
  return isBlankHtml(sanitized) ? '' : sanitized;
}

/**
 * The kind of version an update keeps (issue 20), or null when it keeps none: a change of
 * title or content keeps one, and so does publishing, even with nothing else changed.
 */
function versionKind(input: UpdateChapterBody, restoring: boolean): RevisionKind | null {
  if (asksToPublish(input)) return 'publish';
  if (input.content === undefined && input.title === undefined) return null;
  if (restoring) return 'restore';
  return input.autosave ? 'autosave' : 'save';
}

/**
 * Updates a chapter (PUT /api/books/{b}/chapters/{c}); `restoring` when the new text is an
 * earlier version of it (revisions.service), which its kept version then says.
 */
export async function updateChapter(
  ctx: AppContext,
  viewer: Viewer,
  bookId: number,
  chapterId: number,
  input: UpdateChapterBody,
  { restoring = false }: { restoring?: boolean } = {},
): Promise<Chapter> {
  if (input.publish_at != null) {
    if (input.is_published !== undefined)
      throw badRequest('Send publish_at or is_published, not both');
    if (Date.parse(input.publish_at) <= Date.now())
      throw badRequest('publish_at must be in the future', 'publish_at');
  }
  const answer = await saveChapter(ctx, viewer, { bookId, chapterId }, input, { restoring });
  // Only a release (dueBy) answers null.
  if (!answer) throw notFound('Chapter not found');
  return answer;
}

/**
 * Publishes a chapter whose scheduled time has come (issue 20), exactly as its author publishing
 * it by hand would: same write, same news (events, notifications, feeds, search, caches). The
 * UPDATE claims the row (its publish_at still due by `now`), so when several processes release
 * at once only one publishes it. False when it was not this call's to release: another process
 * released it, or the author cancelled or moved the schedule meanwhile.
 */
export async function releaseScheduledChapter(
  ctx: AppContext,
  author: Author,
  due: { bookId: number; chapterId: number },
  now: string,
): Promise<boolean> {
  const released = await saveChapter(ctx, author, due, { is_published: true }, { dueBy: now });
  return released !== null;
}

/**
 * The one write path of a chapter update: by its author, or by the release of a schedule
 * (`dueBy`: then a row that is no longer due is not a refusal but nothing to do, answered null).
 * `restoring` when the new text is an earlier version (its kept version then says so).
 */
async function saveChapter(
  ctx: AppContext,
  viewer: Author,
  { bookId, chapterId }: { bookId: number; chapterId: number },
  input: UpdateChapterBody,
  { dueBy, restoring = false }: { dueBy?: string; restoring?: boolean } = {},
): Promise<Chapter | null> {
  const now = nowIso();
  const kind = versionKind(input, restoring);
  const changes: chapters.ChapterChanges = {
    ...(input.content !== undefined && contentColumns(input.content)),
    ...(input.title !== undefined && { title: input.title }),
    ...(input.is_published !== undefined && { is_published: toFlag(input.is_published) }),
    ...(input.comments_locked !== undefined && {
      comments_locked: toFlag(input.comments_locked),
    }),
    ...(input.publish_at !== undefined && {
      publish_at: input.publish_at === null ? null : new Date(input.publish_at).toISOString(),
    }),
    // Publishing, by hand or by the release, ends the schedule.
    ...(asksToPublish(input) && { publish_at: null }),
    ...(input.note_before !== undefined && { note_before: noteColumn(input.note_before) }),
    ...(input.note_after !== undefined && { note_after: noteColumn(input.note_after) }),
    // Keeps a version in the UPDATE itself, through the trigger of migration 0017.
    ...(kind && { save_kind: kind }),
    updated_at: now,
  };
  // An update moves no chapter, so unlike the other chapter writes it needs no book lock:
  // ownership and the expected version are conditions of the UPDATE itself, one statement per
  // autosave (and no transaction around it). Only publishing reads the book first (under its
  // lock, the order every chapter write takes locks in), for the news, in one transaction with
  // the followers' inbox; only a refusal reads more, to tell which rule refused.
  const publishing = asksToPublish(input);
  const write: <T>(db: Db, work: (handle: DbHandle) => Promise<T>) => Promise<T> = publishing
    ? writeTransaction
    : writeStatement;
  const saved = await write(ctx.db, async (trx) => {
    const book = publishing ? await chapters.lockBook(trx, bookId) : undefined;
    const target = {
      id: chapterId,
      bookId,
      authorId: viewer.id,
      version: input.version,
      dueBy,
      // Setting or cancelling a schedule (publish_at, null included) is for a draft only.
      draftOnly: input.publish_at !== undefined,
    };
    const updated = await chapters.updateOwnedChapter(trx, target, changes);
    if (!updated && dueBy !== undefined) return null;
    if (!updated) {
      const refusal = await refusedUpdate(
        trx,
        viewer,
        { bookId, chapterId, version: input.version, schedules: target.draftOnly },
        changes,
      );
      if (refusal instanceof AppError) throw refusal;
      return { chapter: refusal, announce: null };
    }
    // The first publication is stamped even in a draft book, so publishing the book later is not news either.
    const first = book !== undefined && (await chapters.markFirstPublished(trx, chapterId, now));
    if (!first || !isPublicBook(book)) return { chapter: updated, announce: null };
    const news: DomainEvent = {
      type: 'chapter.published',
      authorId: viewer.id,
      authorUsername: viewer.username,
      bookId,
      bookTitle: book.title,
      chapterId,
      chapterTitle: updated.title,
    };
    // The followers' inbox rows commit with the publication (by hand or by a release's claim).
    const stored = await storeNotifications({ db: trx }, news);
    return { chapter: updated, announce: { ...news, inboxWritten: stored?.recipients ?? [] } };
  });
  if (!saved) return null;
  const { chapter, announce } = saved;
  const answer =
    'likes' in chapter
      ? toChapter(chapter, { likes: chapter.likes, liked: chapter.liked }, true)
      : toChapter(chapter, await chapters.chapterLikes(ctx.db, chapterId, viewer.id), true);
  if (changesWhatReadersSee(input, answer)) announceBookChanged(ctx, bookId);
  // Only a first publication in a published book is news; edits and re-publishing are not.
  // Its inbox rows are written already: the event tells the followers' sockets.
  if (announce) await ctx.events.publish(announce);
  return answer;
}

export async function deleteChapter(
  ctx: AppContext,
  viewer: Viewer,
  chapterId: number,
): Promise<void> {
  const chapter = await getVisibleChapter(ctx, viewer, chapterId);
  if (!isAuthorOf(chapter, viewer)) throw forbidden('Only the author may change this chapter');
  await writeChaptersOf(ctx, viewer, chapter.book_id, async (trx) => {
    // Kept for DELETED_CHAPTER_DAYS with its versions, so "Recently deleted" can put it back
    // (without its schedule: the author schedules it again; docs/decisions/0033).
    const row = await chapters.moveChapterToDeleted(trx, chapterId, chapter.book_id, nowIso());
    if (row === undefined) throw notFound('Chapter not found');
    await chapters.shiftChapters(trx, chapter.book_id, row.chapter_order + 1, -1);
  });
  announceBookChanged(ctx, chapter.book_id);
}

/**
 * Puts a deleted chapter back in its book (issue 20, "Recently deleted"), under its own id, at
 * the place it had in the order (or at the end, if the book has fewer chapters now), with its
 * text, title, publication and versions as they were; 404 when the book has no such deleted
 * chapter. The caller has checked that the book is the viewer's. What went with the chapter
 * (comments, likes, readers' history and places) does not come back: docs/decisions/0033.
 */
export async function restoreDeletedChapter(
  ctx: AppContext,
  viewer: Viewer,
  bookId: number,
  chapterId: number,
): Promise<Chapter> {
  await writeChaptersOf(ctx, viewer, bookId, async (trx) => {
    const row = await chapters.takeDeletedChapter(trx, bookId, chapterId);
    if (!row) throw notFound('Deleted chapter not found');
    const outline = await outlineWithRoom(trx, bookId);
    const order = Math.min(row.chapter_order, outline.length + 1);
    await chapters.shiftChapters(trx, bookId, order, 1);
    // No save_kind: putting the row back is not a new version (its versions come back with it).
    await chapters.reinsertChapter(trx, { ...row, chapter_order: order });
  });
  announceBookChanged(ctx, bookId);
  return getChapter(ctx, viewer, chapterId);
}
