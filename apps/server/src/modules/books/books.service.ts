import type { Book, UpdateBookBody } from '@inkwell/contract';
import type { AppContext, Viewer } from '../../context.ts';
import { fromFlag, nowIso, toFlag } from '../../lib/convert.ts';
import { conflict, forbidden, notFound } from '../../lib/errors.ts';
import { toBook } from '../../presenters/book.ts';
import { refreshBookSearchDocument } from '../search/search.repository.ts';
import * as books from './books.repository.ts';
import type { BookRow } from './books.repository.ts';

const visibilityFor = (viewer: Viewer | null) => ({ viewerId: viewer?.id ?? null });

type BookAccess = Pick<BookRow, 'author_id' | 'is_published'>;

/** Drafts of others answer 404, as if they did not exist. */
export function assertVisible<T extends BookAccess>(row: T | undefined, viewer: Viewer | null): T {
  if (!row || (!fromFlag(row.is_published) && row.author_id !== viewer?.id)) {
    throw notFound('Book not found');
  }
  return row;
}

/** 404 when the book is not the viewer's to see, 403 when they see it but do not own it. */
export function assertOwned<T extends BookAccess>(row: T | undefined, viewer: Viewer): T {
  const visible = assertVisible(row, viewer);
  if (visible.author_id !== viewer.id) throw forbidden('Only the author may change this book');
  return visible;
}

/** A book the viewer may see, with its author's names and chapter count. */
export async function getVisibleBook(ctx: AppContext, viewer: Viewer | null, bookId: number) {
  return assertVisible(await books.findBookById(ctx.db, bookId, visibilityFor(viewer)), viewer);
}

/** The access facts of a book the viewer may see (for checks that need no names or counts). */
export async function getVisibleBookAccess(ctx: AppContext, viewer: Viewer | null, bookId: number) {
  return assertVisible(await books.findBookAccess(ctx.db, bookId), viewer);
}

/** The access facts of a book the viewer owns: 404 when not theirs to see, 403 when not theirs. */
export async function getOwnedBook(ctx: AppContext, viewer: Viewer, bookId: number) {
  return assertOwned(await books.findBookAccess(ctx.db, bookId), viewer);
}

export async function getBook(ctx: AppContext, viewer: Viewer | null, bookId: number) {
  return toBook(await getVisibleBook(ctx, viewer, bookId));
}

/** The books among `ids` the viewer may see, as cards (others are left out), in no set order. */
export async function listVisibleBooks(
  ctx: AppContext,
  viewer: Viewer | null,
  ids: readonly number[],
): Promise<Book[]> {
  return (await books.findVisibleBooksByIds(ctx.db, ids, visibilityFor(viewer))).map(toBook);
}

export async function listBooks(ctx: AppContext, page: { limit: number; offset: number }) {
  return (await books.listPublishedBooks(ctx.db, page)).map(toBook);
}

export async function listRecentBooks(ctx: AppContext, limit: number) {
  return (await books.listPublishedBooks(ctx.db, { limit, offset: 0 })).map(toBook);
}

export async function listMyBooks(ctx: AppContext, viewer: Viewer) {
  return (await books.listBooksByAuthor(ctx.db, viewer.id, visibilityFor(viewer))).map(toBook);
}

/** An author's books as a visitor sees them: published only, drafts stay in the workspace. */
export async function listAuthorBooks(ctx: AppContext, authorId: number) {
  return (await books.listBooksByAuthor(ctx.db, authorId, { viewerId: null })).map(toBook);
}

export async function listBooksInGenre(ctx: AppContext, genre: string) {
  return (await books.listPublishedBooksInGenre(ctx.db, genre)).map(toBook);
}

export async function createBook(ctx: AppContext, viewer: Viewer, title: string) {
  const id = await ctx.db.transaction().execute(async (trx) => {
    if (await books.authorHasTitle(trx, viewer.id, title)) {
      throw conflict('You already have a book with this title');
    }
    const bookId = await books.insertBook(trx, { authorId: viewer.id, title, now: nowIso() });
    await refreshBookSearchDocument(trx, bookId);
    return bookId;
  });
  return getBook(ctx, viewer, id);
}

export async function updateBook(
  ctx: AppContext,
  viewer: Viewer,
  bookId: number,
  input: UpdateBookBody,
) {
  const existing = await getOwnedBook(ctx, viewer, bookId);
  await ctx.db.transaction().execute(async (trx) => {
    if (
      input.title !== undefined &&
      (await books.authorHasTitle(trx, viewer.id, input.title, bookId))
    ) {
      throw conflict('You already have a book with this title');
    }
    const publishing = input.is_published === true && !fromFlag(existing.is_published);
    await books.updateBook(trx, bookId, {
      ...(input.title !== undefined && { title: input.title }),
      ...(input.summary != null && { summary: input.summary }),
      ...(input.is_published !== undefined && { is_published: toFlag(input.is_published) }),
      // The first publication dates the book for "recent"; re-publishing keeps that date.
      ...(publishing && existing.published_at === null && { published_at: nowIso() }),
      updated_at: nowIso(),
    });
    await refreshBookSearchDocument(trx, bookId);
  });
  return getBook(ctx, viewer, bookId);
}

export async function deleteBook(ctx: AppContext, viewer: Viewer, bookId: number) {
  await getOwnedBook(ctx, viewer, bookId);
  await books.deleteBook(ctx.db, bookId);
}

export async function setCover(ctx: AppContext, viewer: Viewer, bookId: number, href: string) {
  await getOwnedBook(ctx, viewer, bookId);
  await books.updateBook(ctx.db, bookId, { cover: href, updated_at: nowIso() });
}

export async function popularBooks(ctx: AppContext, limit: number) {
  const rows = await books.popularBooks(ctx.db, limit);
  return rows.map((r) => ({ ...r, readers: Number(r.readers) }));
}
