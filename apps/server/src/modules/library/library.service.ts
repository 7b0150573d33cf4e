import {
  SHELF_STATUSES,
  type LibraryEntry,
  type LibraryResponse,
  type ReadingProgress,
  type SaveProgressBody,
  type UpdateLibraryEntryBody,
} from '@inkwell/contract';
import type { AppContext, Viewer } from '../../context.ts';
import { fromFlag, nowIso, toFlag } from '../../lib/convert.ts';
import { notFound } from '../../lib/errors.ts';
import { listVisibleBooks } from '../books/books.service.ts';
import { getVisibleChapter } from '../chapters/chapters.service.ts';
import * as library from './library.repository.ts';
import type { LibraryRow } from './library.repository.ts';
import { byRecentActivity, toLibraryEntry, toReadingProgress } from './library.presenter.ts';

/** The reader's row for a book they may see; anything else is 404, drafts of others included. */
async function visibleRow(ctx: AppContext, viewer: Viewer, bookId: number) {
  const row = await library.findEntry(ctx.db, viewer.id, bookId);
  if (!row) throw notFound('Book not found');
  return row;
}

/** The entries of these rows, each with its book's card from the books service. */
async function withBooks(ctx: AppContext, viewer: Viewer, rows: LibraryRow[]) {
  const cards = await listVisibleBooks(
    ctx,
    viewer,
    rows.map((row) => row.id),
  );
  const byId = new Map(cards.map((book) => [book.id, book]));
  return rows.flatMap((row) => {
    const book = byId.get(row.id);
    // A book that stopped being visible in between is left out, as the next read would.
    return book ? [toLibraryEntry(row, book)] : [];
  });
}

export async function listLibrary(ctx: AppContext, viewer: Viewer): Promise<LibraryResponse> {
  const rows = await library.listEntries(ctx.db, viewer.id);
  const entries = (await withBooks(ctx, viewer, rows)).sort(byRecentActivity);
  const shelf = (status: string) => entries.filter((e) => e.status === status);
  const [reading, want_to_read, finished, dropped] = SHELF_STATUSES.map(shelf);
  return {
    shelves: {
      reading: reading!,
      want_to_read: want_to_read!,
      finished: finished!,
      dropped: dropped!,
      owned: entries.filter((e) => e.owned),
    },
  };
}

export async function getLibraryEntry(
  ctx: AppContext,
  viewer: Viewer,
  bookId: number,
): Promise<LibraryEntry> {
  const [entry] = await withBooks(ctx, viewer, [await visibleRow(ctx, viewer, bookId)]);
  if (!entry) throw notFound('Book not found');
  return entry;
}

/**
 * Sets the status, the owned flag or both; what is not sent keeps its value. A book with no
 * status and not owned leaves the library (its row is deleted; progress and notes stay).
 */
export async function updateLibraryEntry(
  ctx: AppContext,
  viewer: Viewer,
  bookId: number,
  input: UpdateLibraryEntryBody,
): Promise<LibraryEntry> {
  await visibleRow(ctx, viewer, bookId);
  await ctx.db.transaction().execute(async (trx) => {
    const current = await library.findShelfState(trx, viewer.id, bookId);
    const status =
      input.status === undefined
        ? (current?.status ?? null)
        : input.status === 'none'
          ? null
          : input.status;
    const owned = input.owned ?? fromFlag(current?.owned ?? 0);
    if (status === null && !owned) {
      await library.deleteShelfState(trx, viewer.id, bookId);
    } else {
      await library.upsertShelfState(trx, {
        userId: viewer.id,
        bookId,
        status,
        owned: toFlag(owned),
        now: nowIso(),
      });
    }
  });
  return getLibraryEntry(ctx, viewer, bookId);
}

export async function getProgress(
  ctx: AppContext,
  viewer: Viewer,
  bookId: number,
): Promise<ReadingProgress> {
  return toReadingProgress(await visibleRow(ctx, viewer, bookId));
}

/**
 * Saves where the reader is. The chapter must be one they may open, in this book. Reading a
 * book that is on no shelf puts it on 'reading'; a shelf the reader chose is left alone.
 */
export async function saveProgress(
  ctx: AppContext,
  viewer: Viewer,
  bookId: number,
  input: SaveProgressBody,
): Promise<ReadingProgress> {
  const chapter = await getVisibleChapter(ctx, viewer, input.chapter_id);
  if (chapter.book_id !== bookId) throw notFound('Chapter not found in this book');
  const now = nowIso();
  await ctx.db.transaction().execute(async (trx) => {
    await library.upsertPosition(trx, {
      userId: viewer.id,
      bookId,
      chapterId: chapter.id,
      paragraph: input.paragraph,
      offset: input.offset,
      now,
    });
    await library.shelveAsReadingUnlessShelved(trx, viewer.id, bookId, now);
  });
  return getProgress(ctx, viewer, bookId);
}
