import type { ReadHistoryItem, ReadRecord } from '@inkwell/contract';
import type { AppContext, Viewer } from '../../context.ts';
import { nowIso } from '../../lib/convert.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { toReadHistoryItem } from '../../presenters/chapter.ts';
import { getVisibleChapter } from '../chapters/chapters.service.ts';
import * as history from './history.repository.ts';

/** Records that the viewer read a chapter they can see; a repeat answers 409, as the spec's client expects. */
export async function recordRead(
  ctx: AppContext,
  viewer: Viewer,
  bookId: number,
  chapterId: number,
): Promise<ReadRecord> {
  const chapter = await getVisibleChapter(ctx, viewer, chapterId);
  if (chapter.book_id !== bookId) throw notFound('Chapter not found');
  const readAt = nowIso();
  if (!(await history.insertRead(ctx.db, { userId: viewer.id, chapterId, readAt }))) {
    // Nothing inserted: already read (the usual case), or the chapter was deleted meanwhile.
    if (!(await history.hasRead(ctx.db, viewer.id, chapterId))) throw notFound('Chapter not found');
    throw conflict('This chapter is already in your read history');
  }
  return { book_id: bookId, chapter_id: chapterId, read_at: readAt };
}

export async function listHistory(
  ctx: AppContext,
  viewer: Viewer,
  page: { limit: number; offset: number },
): Promise<ReadHistoryItem[]> {
  return (await history.listReads(ctx.db, viewer.id, page)).map(toReadHistoryItem);
}

export async function deleteRead(
  ctx: AppContext,
  viewer: Viewer,
  chapterId: number,
): Promise<void> {
  if (!(await history.deleteRead(ctx.db, viewer.id, chapterId))) {
    throw notFound('This chapter is not in your read history');
  }
}
