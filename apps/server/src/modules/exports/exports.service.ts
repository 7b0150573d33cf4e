import { isAuthorOf } from '../../access/policy.ts';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AppContext, Viewer } from '../../context.ts';
import { getVisibleBook } from '../books/books.service.ts';
import { buildEpub } from './epub-writer.ts';
import * as exportsRepo from './exports.repository.ts';
import { htmlToXhtml } from './xhtml.ts';

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

const UPLOAD_NAME = /^[A-Za-z0-9_-]+\.(jpg|png|webp)$/;

/** The stored cover's bytes. Only names the upload store makes are read: never a path from elsewhere. */
async function readCover(directory: string, href: string | null) {
  if (!href) return null;
  const name = href.slice(href.lastIndexOf('/') + 1);
  const match = UPLOAD_NAME.exec(name);
  if (!match) return null;
  try {
    return {
      bytes: await fs.readFile(path.join(directory, name)),
      extension: match[1] as 'jpg' | 'png' | 'webp',
    };
  } catch {
    return null;
  }
}

const later = (a: string, b: string) => (a > b ? a : b);

/**
 * A visible book as an EPUB 3 file: published chapters for readers; its author, who may also
 * export a draft book, gets every chapter.
 */
export async function exportEpub(ctx: AppContext, viewer: Viewer | null, bookId: number) {
  const book = await getVisibleBook(ctx, viewer, bookId);
  const includeDrafts = isAuthorOf(book, viewer);
  const chapters = await exportsRepo.chapterContents(ctx.db, bookId, { includeDrafts });
  const creator =
    `${book.author_first_name} ${book.author_last_name}`.trim() || book.author_username;
  const bytes = await buildEpub({
    identifier: bookIdentifier(book.id, book.created_at),
    title: book.title,
    language: 'en',
    creator,
    description: book.summary,
    publisher: 'Inkwell',
    published: book.published_at,
    modified: chapters.reduce((latest, c) => later(latest, c.updated_at), book.updated_at),
    cover: await readCover(ctx.uploads.directory, book.cover),
    chapters: chapters.map((c) => ({ title: c.title, xhtml: htmlToXhtml(c.content) })),
  });
  return {
    bytes,
    filename: `${safeFilename(book.title, `book-${book.id}`)}.epub`,
    title: book.title,
  };
}
