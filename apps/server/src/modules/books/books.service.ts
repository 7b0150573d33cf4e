import type { Book, BookFilter, BookSort, UpdateBookBody } from '@inkwell/contract';
import {
  hasExclusions,
  NO_EXCLUSIONS,
  type Exclusions,
  type ListFilter,
} from '../../access/book-filters.ts';
import type { AppContext, ReadContext, Viewer } from '../../context.ts';
import {
  asksToPublish,
  assertCanSeeBook,
  assertOwnsBook,
  bookNotFound,
  isPublicBook,
} from '../../access/policy.ts';
import { fromFlag, nowIso, toFlag } from '../../lib/convert.ts';
import { conflict } from '../../lib/errors.ts';
import { uniqueTitle } from '../../lib/unique-title.ts';
import type { Db, DbHandle } from '../../db/kysely.ts';
import { toBook } from '../../presenters/book.ts';
import { listFilterFor } from '../discovery/discovery.service.ts';
import { bookFollowFacts } from '../follows/book-follows.service.ts';
import * as books from './books.repository.ts';

const TITLE_TAKEN = 'You already have a book with this title';

const visibilityFor = (viewer: Viewer | null) => ({ viewerId: viewer?.id ?? null });

/**
 * Tells every process that visitors may see something else of this book: its fields, cover,
 * genres, publication or published chapters (the answer cache listens). Published after the
 * write commits; a failed delivery is logged by the bus, and cached answers expire anyway.
 */
export function announceBookChanged(ctx: AppContext, bookId: number): void {
  void ctx.events.publish({ type: 'book.changed', bookId });
}

/** A book the viewer may see, with its author's names and chapter count. */
export async function getVisibleBook(ctx: AppContext, viewer: Viewer | null, bookId: number) {
  return assertCanSeeBook(await books.findBookById(ctx.db, bookId, visibilityFor(viewer)), viewer);
}

/** The access facts of a book the viewer may see (for checks that need no names or counts). */
export async function getVisibleBookAccess(ctx: AppContext, viewer: Viewer | null, bookId: number) {
  return assertCanSeeBook(await books.findBookAccess(ctx.db, bookId), viewer);
}

/** The access facts of a book the viewer owns: 404 when not theirs to see, 403 when not theirs. */
export async function getOwnedBook(ctx: AppContext, viewer: Viewer, bookId: number) {
  return assertOwnsBook(await books.findBookAccess(ctx.db, bookId), viewer);
}

/**
 * The book as GET /api/books/{id} answers it (and the owner's writes): the card, whether its
 * comments are locked (not secret: readers see why they cannot comment), its follower count and,
 * for a signed-in viewer, whether they follow it (issue 19). See book-follows.service.ts for why
 * a visitor's cached count may be briefly stale.
 */
export async function getBook(ctx: AppContext, viewer: Viewer | null, bookId: number) {
  const row = await getVisibleBook(ctx, viewer, bookId);
  const { followers, following } = await bookFollowFacts(ctx, bookId, viewer);
  // Issue 20: the schedule shows only when its author chose to show it.
  const showNext = fromFlag(row.show_next_release);
  return {
    ...toBook(row),
    comments_locked: fromFlag(row.comments_locked),
    followers,
    ...(viewer && { following }),
    show_next_release: showNext,
    schedule_note: row.schedule_note,
    ...(showNext && { next_release_at: await books.nextReleaseAt(ctx.db, bookId) }),
  };
}

/** The books among `ids` the viewer may see, as cards, in the order of `ids` (others are left out). */
export async function listVisibleBooks(
  ctx: ReadContext,
  viewer: Viewer | null,
  ids: readonly number[],
): Promise<Book[]> {
  return (await visibleRowsInOrder(ctx, viewer, ids, NO_EXCLUSIONS)).map(toBook);
}

/** The rows of `ids` the viewer may see, in the order of `ids`, each marked if `exclusions` remove it. */
async function visibleRowsInOrder(
  ctx: ReadContext,
  viewer: Viewer | null,
  ids: readonly number[],
  exclusions: Exclusions,
) {
  const rows = await books.findVisibleBooksByIds(ctx.db, ids, visibilityFor(viewer), exclusions);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * A list as a reader meets it (issue 21): its books, and how many the reader's saved exclusions
 * took out of it (all pages; 0 for a visitor or with `filters=off`). See decision 0031.
 */
export interface FilteredBooks<T = Book> {
  books: T[];
  hidden: number;
}

/** What a list's query takes besides its page: the request's filters and order. */
export type ListRequest = BookFilter & { sort?: BookSort };

/**
 * The hidden count of a list of published books meeting `where` (none without exclusions): over
 * the whole list, or, for a capped list (`top`), over the books the cap would show unfiltered.
 */
async function hiddenCount(
  ctx: ReadContext,
  list: ListFilter,
  where: Parameters<typeof books.countHiddenBooks>[1] = [],
  top?: { sort: BookSort; limit: number },
): Promise<number> {
  if (!hasExclusions(list.exclusions)) return 0;
  return top
    ? books.countHiddenInTop(ctx.db, where, list, top.sort, top.limit)
    : books.countHiddenBooks(ctx.db, where, list);
}

/**
 * Published books, filtered and sorted. A paged list's hidden count is said on its first page
 * only: it is the whole list's, the web reads the first page's, and later pages would pay the
 * same count again for nothing. A capped list (`capped`) counts among its cap (hiddenCount).
 */
async function listFilteredBooks(
  ctx: ReadContext,
  viewer: Viewer | null,
  request: ListRequest & { limit: number; offset: number },
  capped: boolean,
): Promise<FilteredBooks> {
  const list = await listFilterFor(ctx, viewer, request);
  const sort = request.sort ?? 'new';
  const rows = await books.listPublishedBooks(ctx.db, request, list, sort);
  const hidden =
    request.offset > 0
      ? 0
      : await hiddenCount(ctx, list, [], capped ? { sort, limit: request.limit } : undefined);
  return { books: rows.map(toBook), hidden };
}

/** GET /api/books: published books, filtered and sorted (the spec's order by default: newest). */
export async function listBooks(
  ctx: ReadContext,
  viewer: Viewer | null,
  request: ListRequest & { limit: number; offset: number },
): Promise<FilteredBooks> {
  return listFilteredBooks(ctx, viewer, request, false);
}

/** The books of a genre page: the genre list route's cap, no paging (as the spec's route). */
const GENRE_LIST_LIMIT = 200;

export async function listBooksInGenre(
  ctx: ReadContext,
  viewer: Viewer | null,
  genre: string,
  request: ListRequest,
): Promise<FilteredBooks> {
  const page = { ...request, genre, limit: GENRE_LIST_LIMIT, offset: 0 };
  return listFilteredBooks(ctx, viewer, page, true);
}

export async function listRecentBooks(
  ctx: AppContext,
  viewer: Viewer | null,
  limit: number,
  filters: BookFilter['filters'],
): Promise<FilteredBooks> {
  return listFilteredBooks(ctx, viewer, { limit, offset: 0, filters }, true);
}

export async function listMyBooks(ctx: AppContext, viewer: Viewer) {
  return (await books.listBooksByAuthor(ctx.db, viewer.id, visibilityFor(viewer))).map(toBook);
}

/** An author's books as a reader meets them: published only (drafts stay in the workspace). */
export async function listAuthorBooks(
  ctx: AppContext,
  viewer: Viewer | null,
  authorId: number,
  filters: BookFilter['filters'],
): Promise<FilteredBooks> {
  const list = await listFilterFor(ctx, viewer, { filters });
  // Published only, as a visitor sees them; the reader's filter applies.
  const rows = await books.listBooksByAuthor(ctx.db, authorId, { viewerId: null }, list);
  return { books: rows.map(toBook), hidden: await countHiddenBooksOf(ctx, list, authorId) };
}

/** How many of the author's published books the reader's exclusions in `list` hide. */
export async function countHiddenBooksOf(
  ctx: ReadContext,
  list: ListFilter,
  authorId: number,
): Promise<number> {
  return hiddenCount(ctx, list, [books.byAuthor(authorId)]);
}

/**
 * The books among `ids` a reader may see that their exclusions leave, in the order of `ids`,
 * and how many of them the exclusions took out (followed books, search hits).
 */
export async function listVisibleBooksFor(
  ctx: AppContext,
  viewer: Viewer | null,
  ids: readonly number[],
  filters: BookFilter['filters'],
): Promise<FilteredBooks> {
  const list = await listFilterFor(ctx, viewer, { filters });
  const rows = await visibleRowsInOrder(ctx, viewer, ids, list.exclusions);
  const shown = rows.filter((row) => !row.excluded);
  return { books: shown.map(toBook), hidden: rows.length - shown.length };
}

export async function createBook(ctx: AppContext, viewer: Viewer, title: string) {
  const id = await ctx.db.transaction().execute(async (trx) => {
    if (await books.authorHasTitle(trx, viewer.id, title)) {
      throw conflict(TITLE_TAKEN, 'title');
    }
    return books.insertBook(trx, { authorId: viewer.id, title, now: nowIso() });
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
      throw conflict(TITLE_TAKEN, 'title');
    }
    const publishing = asksToPublish(input) && !isPublicBook(existing);
    const updated = await books.updateBook(trx, bookId, {
      ...(input.title !== undefined && { title: input.title }),
      ...(input.summary != null && { summary: input.summary }),
      ...(input.is_published !== undefined && { is_published: toFlag(input.is_published) }),
      ...(input.comments_locked !== undefined && {
        comments_locked: toFlag(input.comments_locked),
      }),
      ...(input.show_next_release !== undefined && {
        show_next_release: toFlag(input.show_next_release),
      }),
      ...(input.schedule_note !== undefined && { schedule_note: input.schedule_note }),
      ...(input.rating !== undefined && { rating: input.rating }),
      ...(input.status !== undefined && { status: input.status }),
      // The first publication dates the book for "recent"; re-publishing keeps that date.
      ...(publishing && existing.published_at === null && { published_at: nowIso() }),
      updated_at: nowIso(),
    });
    // Deleted since it was read above (in another tab): there is nothing to tag.
    if (!updated) throw bookNotFound();
    if (input.tags !== undefined) await books.setBookTags(trx, bookId, input.tags);
    if (input.warnings !== undefined) await books.setBookWarnings(trx, bookId, input.warnings);
  });
  announceBookChanged(ctx, bookId);
  return getBook(ctx, viewer, bookId);
}

export async function deleteBook(ctx: AppContext, viewer: Viewer, bookId: number) {
  await getOwnedBook(ctx, viewer, bookId);
  // One transaction: the tags it lets go are deleted under the tags' lock (books.deleteBook).
  await ctx.db.transaction().execute((trx) => books.deleteBook(trx, bookId));
  announceBookChanged(ctx, bookId);
}

export async function setCover(ctx: AppContext, viewer: Viewer, bookId: number, href: string) {
  await getOwnedBook(ctx, viewer, bookId);
  await books.updateBook(ctx.db, bookId, { cover: href, updated_at: nowIso() });
  announceBookChanged(ctx, bookId);
}

/**
 * A new draft book of `authorId` for an import, its title made unique among the author's books
 * ("Title (2)"), with a summary: the import's first step, before any chapter.
 */
export async function createDraftBook(
  db: DbHandle,
  authorId: number,
  book: { title: string; summary: string },
): Promise<{ bookId: number; title: string }> {
  return db.transaction().execute(async (trx) => {
    const taken = (await books.listBooksByAuthor(trx, authorId, { viewerId: authorId })).map(
      (b) => b.title,
    );
    const title = uniqueTitle(book.title, taken);
    const bookId = await books.insertBook(trx, { authorId, title, now: nowIso() });
    if (book.summary) await books.updateBook(trx, bookId, { summary: book.summary });
    return { bookId, title };
  });
}

/**
 * Sets the cover an import found, leaving the book's `updated_at` as the import made it: a later
 * one tells that its author changed the book by hand (books.isUntouchedImport).
 */
export async function setImportedCover(db: DbHandle, bookId: number, cover: string) {
  await books.updateBook(db, bookId, { cover });
}

/**
 * Marks the book changed: by its author, where nothing else of the book records the change (a new
 * reading order), or by its import once it has written every chapter.
 */
export async function markBookChanged(db: DbHandle, bookId: number) {
  await books.updateBook(db, bookId, { updated_at: nowIso() });
}

/**
 * An import's rollback of the book it made, without asking whose it is; unless its author has
 * taken the book up meanwhile (see books.isUntouchedImport): their work is never removed with
 * it. Answers whether the book was removed.
 */
export async function removeImportedBook(db: Db, bookId: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!(await books.isUntouchedImport(trx, bookId))) return false;
    await books.deleteBook(trx, bookId);
    return true;
  });
}

export async function popularBooks(
  ctx: AppContext,
  viewer: Viewer | null,
  limit: number,
  filters: BookFilter['filters'],
) {
  const list = await listFilterFor(ctx, viewer, { filters });
  const rows = await books.popularBooks(ctx.db, limit, list);
  return {
    popular: rows.map((r) => ({ ...r, readers: Number(r.readers) })),
    hidden: await hiddenCount(ctx, list, [books.withReaders], { sort: 'popular', limit }),
  };
}
