import { isAuthorOf } from '../../access/policy.ts';
import crypto from 'node:crypto';
import os from 'node:os';
import type { Config } from '../../config.ts';
import type { AppContext, Viewer } from '../../context.ts';
import { parseUploadName, uploadNameOfHref, type UploadStore } from '../../lib/upload-store.ts';
import { getVisibleBook } from '../books/books.service.ts';
import { AppError } from '../../lib/errors.ts';
import { buildEpubInWorker } from './build-in-worker.ts';
import { EpubStore } from './epub-store.ts';
import type { EpubBook } from './epub-writer.ts';
import * as exportsRepo from './exports.repository.ts';

/** A stable urn:uuid for a book: the same book always exports with the same identifier. */
function bookIdentifier(bookId: number, createdAt: string): string {
  const hex = crypto.createHash('sha1').update(`inkwell:book:${bookId}:${createdAt}`).digest('hex');
  // Shaped as a name-based (version 5) UUID.
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `urn:uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** An ASCII file name from a title: accents dropped, anything unusual removed. */
export function safeFilename(title: string, fallback: string): string {
  const ascii = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 ._-]+/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/-{2,}/g, '-')
    .replace(/^[.-]+|[.-]+$/g, '')
    .slice(0, 80);
  return ascii || fallback;
}

/** The stored cover's bytes, from whichever store holds them; null when it has none. */
async function readCover(uploads: UploadStore, href: string | null) {
  if (!href) return null;
  const name = uploadNameOfHref(href);
  const parsed = parseUploadName(name);
  if (!parsed) return null;
  const upload = await uploads.read(name);
  return upload && { bytes: upload.bytes, extension: parsed.extension };
}

const later = (a: string, b: string) => (a > b ? a : b);

/** Chapters read from the database at a time while an EPUB is built. */
const CHAPTERS_PER_BATCH = 20;
/** A build's worker: time and heap it may use (the size cap is EXPORT_MAX_MB). */
const BUILD_TIMEOUT_MS = 120_000;
const BUILD_HEAP_MB = 512;

/**
 * The store of built EPUBs of a process (one per app, in its context): memory from the settings.
 * Builds take at most half the machine's cores, so that the event loop (and the database, when
 * it is on the same machine) always has a core while a large book is compressed.
 */
export function createEpubStore(config: Pick<Config, 'EXPORT_CACHE_MB'>): EpubStore {
  return new EpubStore({
    maxBytes: config.EXPORT_CACHE_MB * 1024 * 1024,
    concurrency: Math.max(1, Math.floor(os.availableParallelism() / 2)),
    maxQueued: 20,
  });
}

/** How many times an export starts over when its chapters change while it is being built. */
const EXPORT_ATTEMPTS = 3;

/** A chapter of the list an export started from was unpublished or deleted before its text was read. */
class ChapterListChanged extends Error {}

/**
 * A visible book as an EPUB 3 file: published chapters for readers; its author, who may also
 * export a draft book, gets every chapter. The file is built off the event loop (a worker
 * thread), a batch of chapters at a time, and kept: the next export of the book for the same
 * audience is served from memory until anything the file is made of changes.
 *
 * The chapter list is read before the texts, in separate statements (no transaction is held
 * while a worker builds). A chapter unpublished in between would leave its title in the table of
 * contents of a reader's file, so the export starts over from a new list instead.
 */
export async function exportEpub(ctx: AppContext, viewer: Viewer | null, bookId: number) {
  const book = await getVisibleBook(ctx, viewer, bookId);
  for (let attempt = 1; ; attempt++) {
    try {
      return {
        bytes: await buildOrReuse(ctx, book, isAuthorOf(book, viewer)),
        filename: `${safeFilename(book.title, `book-${book.id}`)}.epub`,
        title: book.title,
      };
    } catch (error) {
      if (!(error instanceof ChapterListChanged)) throw error;
      if (attempt === EXPORT_ATTEMPTS)
        throw new AppError(
          'unavailable',
          'The book changed while its EPUB was being made; please try again',
          { 'retry-after': '5' },
        );
    }
  }
}

/** The book's EPUB for its audience as the book is now: kept, or built from a fresh chapter list. */
async function buildOrReuse(
  ctx: AppContext,
  book: Awaited<ReturnType<typeof getVisibleBook>>,
  includeDrafts: boolean,
) {
  const chapters = await exportsRepo.chapterList(ctx.db, book.id, { includeDrafts });
  const description: Omit<EpubBook, 'cover'> = {
    identifier: bookIdentifier(book.id, book.created_at),
    title: book.title,
    language: 'en',
    creator: `${book.author_first_name} ${book.author_last_name}`.trim() || book.author_username,
    description: book.summary,
    publisher: 'Inkwell',
    published: book.published_at,
    modified: chapters.reduce((latest, c) => later(latest, c.updated_at), book.updated_at),
    chapterTitles: chapters.map((c) => c.title),
  };
  // Everything the file is made of: the book as described, its cover (upload names are content
  // hashes) and each chapter's last change, in reading order.
  const fingerprint = crypto
    .createHash('sha256')
    .update(JSON.stringify([description, book.cover, chapters]))
    .digest('base64url');
  const audience = includeDrafts ? 'author' : 'readers';

  return ctx.epubs.get(`${book.id}:${audience}`, fingerprint, async () => {
    let next = 0;
    const nextTexts = async () => {
      const batch = chapters.slice(next, next + CHAPTERS_PER_BATCH);
      next += batch.length;
      if (batch.length === 0) return null;
      const rows = await exportsRepo.chapterTexts(
        ctx.db,
        book.id,
        batch.map((c) => c.id),
        { includeDrafts },
      );
      const texts = new Map(rows.map((row) => [row.id, row.content]));
      return batch.map((c) => {
        const text = texts.get(c.id);
        if (text === undefined) throw new ChapterListChanged();
        return text;
      });
    };
    return buildEpubInWorker(
      { ...description, cover: await readCover(ctx.uploads, book.cover) },
      nextTexts,
      {
        maxBytes: ctx.config.EXPORT_MAX_MB * 1024 * 1024,
        timeoutMs: BUILD_TIMEOUT_MS,
        maxHeapMb: BUILD_HEAP_MB,
      },
    );
  });
}
