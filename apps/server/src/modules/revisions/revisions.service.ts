import {
  REVISIONS_LIST_LIMIT,
  type Chapter,
  type DeletedChapter,
  type Revision,
  type RevisionKind,
  type RevisionSummary,
} from '@inkwell/contract';
import type { AppContext, Viewer } from '../../context.ts';
import { assertOwnsQuietly } from '../../access/policy.ts';
import { notFound } from '../../lib/errors.ts';
import { fromFlag } from '../../lib/convert.ts';
import { getVisibleBookAccess } from '../books/books.service.ts';
import {
  getVisibleChapter,
  restoreDeletedChapter as putBack,
  updateChapter,
} from '../chapters/chapters.service.ts';
import * as log from './revision-log.ts';
import * as revisions from './revisions.repository.ts';

/**
 * Issue 20, "Every version kept": a chapter's versions and a book's recently deleted chapters,
 * for their author only; anyone else gets 404, as if there were none.
 */

async function ownedChapter(ctx: AppContext, viewer: Viewer, chapterId: number) {
  return assertOwnsQuietly(await getVisibleChapter(ctx, viewer, chapterId), viewer, 'Chapter');
}

async function ownedBook(ctx: AppContext, viewer: Viewer, bookId: number) {
  return assertOwnsQuietly(await getVisibleBookAccess(ctx, viewer, bookId), viewer, 'Book');
}

const summary = (row: {
  id: number;
  created_at: string;
  words: number;
  kind: string;
}): RevisionSummary => ({
  id: row.id,
  created_at: row.created_at,
  words: row.words,
  kind: row.kind as RevisionKind,
});

export async function listRevisions(
  ctx: AppContext,
  viewer: Viewer,
  chapterId: number,
  before?: number,
) {
  await ownedChapter(ctx, viewer, chapterId);
  // The newest REVISIONS_LIST_LIMIT older than `before`, for History's older pages.
  const rows = await revisions.listRevisions(ctx.db, chapterId, {
    limit: REVISIONS_LIST_LIMIT,
    before,
  });
  return rows.map(summary);
}

async function readRevision(ctx: AppContext, chapterId: number, revisionId: number) {
  const [row, content] = await Promise.all([
    revisions.findRevision(ctx.db, chapterId, revisionId),
    log.versionContent(ctx.db, chapterId, revisionId),
  ]);
  if (!row || content === undefined) throw notFound('Version not found');
  return { ...summary(row), title: row.title, content };
}

export async function getRevision(
  ctx: AppContext,
  viewer: Viewer,
  chapterId: number,
  revisionId: number,
): Promise<Revision> {
  await ownedChapter(ctx, viewer, chapterId);
  return readRevision(ctx, chapterId, revisionId);
}

/**
 * Makes a version current: a save of its title and content, with everything a save does (the
 * version bump, the read cache's event, search indexing), kept as a version of kind `restore`.
 */
export async function restoreRevision(
  ctx: AppContext,
  viewer: Viewer,
  chapterId: number,
  revisionId: number,
): Promise<Chapter> {
  const chapter = await ownedChapter(ctx, viewer, chapterId);
  const version = await readRevision(ctx, chapterId, revisionId);
  return updateChapter(
    ctx,
    viewer,
    chapter.book_id,
    chapterId,
    { title: version.title, content: version.content },
    { restoring: true },
  );
}

export async function listDeletedChapters(
  ctx: AppContext,
  viewer: Viewer,
  bookId: number,
): Promise<DeletedChapter[]> {
  await ownedBook(ctx, viewer, bookId);
  return (await revisions.listDeletedChapters(ctx.db, bookId)).map((row) => ({
    id: row.id,
    book_id: row.book_id,
    title: row.title,
    chapter_order: row.chapter_order,
    is_published: fromFlag(row.is_published),
    word_count: row.word_count,
    deleted_at: row.deleted_at,
    purge_at: log.purgeTime(row.deleted_at),
  }));
}

export async function restoreDeletedChapter(
  ctx: AppContext,
  viewer: Viewer,
  bookId: number,
  chapterId: number,
): Promise<Chapter> {
  await ownedBook(ctx, viewer, bookId);
  return putBack(ctx, viewer, bookId, chapterId);
}

/** The scheduled job's run (modules/jobs/schedule.ts), at the process's clock. */
export async function compactRevisions(ctx: AppContext, now = Date.now()) {
  return log.compactRevisions(ctx.db, now);
}
