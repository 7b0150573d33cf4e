import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { SUMMARY_MAX_LENGTH } from '@inkwell/contract';
import sharp from 'sharp';
import type { AppContext } from '../../context.ts';
import { writeTransaction, type DbHandle } from '../../db/kysely.ts';
import { processImage } from '../../lib/images.ts';
import {
  createDraftBook,
  markBookChanged,
  removeImportedBook,
  setImportedCover,
} from '../books/books.service.ts';
import {
  appendChapters,
  contentColumns,
  type ContentColumns,
} from '../chapters/chapters.service.ts';
import { ImportFileError, type ParsedBook } from './parsers/index.ts';
import { bookTitleOf } from './plan.ts';

/** What saving an import needs from the app: the database and the upload store. */
export type ImportDeps = Pick<AppContext, 'db' | 'uploads'>;

export interface SavedBook {
  bookId: number;
  title: string;
  chapterCount: number;
  warnings: string[];
}

/**
 * Chapters written per transaction, bounded by count and by size: on SQLite every write (and its
 * full-text indexing) runs on this thread, and a transaction holds the only writer.
 */
const BATCH_CHAPTERS = 10;
const BATCH_CONTENT_CHARS = 64 * 1024;
const MAX_COVER_PIXELS = 40_000_000;

/** Why a finished import is undone when its job was ended meanwhile (by a sweep that took it for an orphan). */
export const IMPORT_ENDED_ELSEWHERE =
  'The import was stopped before it could finish; please try again';

/** PNG and JPEG go straight to processImage; SVG, GIF and WebP covers are first drawn as an opaque JPEG. */
async function coverImage(cover: NonNullable<ParsedBook['cover']>) {
  const bytes = Buffer.from(cover.bytes);
  if (cover.mediaType === 'image/jpeg' || cover.mediaType === 'image/png')
    return processImage(bytes, 'cover');
  const jpeg = await sharp(bytes, { limitInputPixels: MAX_COVER_PIXELS, density: 96 })
    .resize({ width: 600, height: 900, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 90 })
    .toBuffer();
  return processImage(jpeg, 'cover');
}

/**
 * Makes the parsed book an unpublished book of `userId`: title made unique among their books,
 * summary, cover, then chapters in order through the chapters module's own write path (the
 * book's write lock, the editor's sanitizer and derived text). A failure part way removes the
 * book, so a failed import leaves nothing behind. `finish` records the import's end in the same
 * transaction that marks the book complete: a process that dies before that commit leaves an
 * untouched book its job's sweep removes, never a whole book beside a job that says it failed.
 */
export async function saveParsedBook(
  deps: ImportDeps,
  userId: number,
  parsed: ParsedBook,
  filename: string,
  hooks: {
    onBook(bookId: number): Promise<void>;
    progress(fraction: number, message: string): void;
    /** Asked between batches: a reason to stop (the server is shutting down), or null to go on. */
    stopReason?(): string | null;
    /** Records the finished import with the book's last write; false undoes that write. */
    finish(handle: DbHandle, saved: SavedBook): Promise<boolean>;
  },
): Promise<SavedBook> {
  const warnings: string[] = [];
  const baseTitle = bookTitleOf(parsed, filename);
  const summary = (parsed.description ?? '').slice(0, SUMMARY_MAX_LENGTH);
  const { bookId, title } = await createDraftBook(deps.db, userId, { title: baseTitle, summary });
  try {
    await hooks.onBook(bookId);
    if (parsed.cover) {
      hooks.progress(0.02, 'Saving the cover');
      try {
        const { bytes, extension } = await coverImage(parsed.cover);
        await setImportedCover(deps.db, bookId, await deps.uploads.save(bytes, extension));
      } catch {
        warnings.push('The cover image could not be read and was left out');
      }
    }
    const total = parsed.chapters.length;
    let saved = 0;
    while (saved < total) {
      const stop = hooks.stopReason?.();
      if (stop) throw new ImportFileError(stop);
      // Each chapter goes through the editor's write path (sanitizer, text, word count) on this
      // thread; yielding between chapters and writing small batches keeps every pause short.
      const batch: Array<ContentColumns & { title: string }> = [];
      let size = 0;
      while (
        saved + batch.length < total &&
        (batch.length === 0 || (size < BATCH_CONTENT_CHARS && batch.length < BATCH_CHAPTERS))
      ) {
        const chapter = parsed.chapters[saved + batch.length]!;
        batch.push({ title: chapter.title, ...contentColumns(chapter.html) });
        size += chapter.html.length;
        await yieldToEventLoop();
      }
      const first = saved + 1;
      if (!(await appendChapters(deps.db, bookId, first, batch)))
        throw new Error('The book was deleted during the import');
      saved += batch.length;
      hooks.progress(0.05 + (0.95 * saved) / total, `Saved ${saved} of ${total} chapters`);
      await yieldToEventLoop();
    }
    const whole: SavedBook = { bookId, title, chapterCount: total, warnings };
    await writeTransaction(deps.db, async (trx) => {
      await markBookChanged(trx, bookId);
      if (!(await hooks.finish(trx, whole)))
        throw new ImportFileError(hooks.stopReason?.() ?? IMPORT_ENDED_ELSEWHERE);
    });
    return whole;
  } catch (error) {
    await removeImportedBook(deps.db, bookId).catch(() => {});
    throw error;
  }
}
