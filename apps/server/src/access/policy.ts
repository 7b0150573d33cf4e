import type { Flag } from '../db/schema.ts';
import { fromFlag } from '../lib/convert.ts';
import { conflict, forbidden, notFound } from '../lib/errors.ts';

/**
 * Who may see and change what, for rows a service already holds: the same rule as
 * `visibility.ts`, which filters in SQL. Things a viewer may not see answer 404, as if they did
 * not exist; things they see but do not own answer 403.
 */

/** A signed-in viewer (only the id matters here), or null for a visitor. */
export type AccessViewer = { id: number } | null;

/** What the rules need of a book. */
export interface BookFacts {
  author_id: number;
  is_published: Flag;
}

/** What the rules need of a chapter: its own flag, its book's flag and its book's author. */
export interface ChapterFacts {
  author_id: number;
  is_published: Flag;
  book_is_published: Flag;
}

/** A published book: readers can see it, and news about it may go out. */
export function isPublicBook(book: Pick<BookFacts, 'is_published'>): boolean {
  return fromFlag(book.is_published);
}

/** A chapter anyone may read: published, in a published book. */
export function isPublicChapter(chapter: Pick<ChapterFacts, 'is_published' | 'book_is_published'>) {
  return fromFlag(chapter.book_is_published) && fromFlag(chapter.is_published);
}

/** A chapter as the API answers it (its flag a boolean): published, so what readers see. */
export function isPublishedChapter(chapter: { is_published: boolean }): boolean {
  return chapter.is_published;
}

/**
 * Whether an update's body asks to publish (`is_published: true`); `false` asks to unpublish,
 * and an absent flag leaves publication as it was (`input.is_published !== undefined` says sent).
 */
export function asksToPublish(body: { is_published?: boolean }): boolean {
  return body.is_published === true;
}

export function isAuthorOf(book: Pick<BookFacts, 'author_id'>, viewer: AccessViewer): boolean {
  return viewer !== null && book.author_id === viewer.id;
}

export function canSeeBook(book: BookFacts, viewer: AccessViewer): boolean {
  return isPublicBook(book) || isAuthorOf(book, viewer);
}

export function canSeeChapter(chapter: ChapterFacts, viewer: AccessViewer): boolean {
  return isPublicChapter(chapter) || isAuthorOf(chapter, viewer);
}

/** The answer for a book that is not there, or not there for this viewer. */
export const bookNotFound = () => notFound('Book not found');

/** The book, if the viewer may see it; otherwise 404. */
export function assertCanSeeBook<T extends BookFacts>(row: T | undefined, viewer: AccessViewer): T {
  if (!row || !canSeeBook(row, viewer)) throw bookNotFound();
  return row;
}

/** The book, if it is the viewer's: 404 when they may not see it, 403 when they see it but it is not theirs. */
export function assertOwnsBook<T extends BookFacts>(
  row: T | undefined,
  viewer: NonNullable<AccessViewer>,
): T {
  const visible = assertCanSeeBook(row, viewer);
  if (!isAuthorOf(visible, viewer)) throw forbidden('Only the author may change this book');
  return visible;
}

/** The chapter, if the viewer may open it; otherwise 404, so drafts look like nothing at all. */
export function assertCanSeeChapter<T extends ChapterFacts>(
  row: T | undefined,
  viewer: AccessViewer,
): T {
  if (!row || !canSeeChapter(row, viewer)) throw notFound('Chapter not found');
  return row;
}

/**
 * A schedule (issue 20) is set, moved or cancelled only on a draft: once the chapter is published
 * (by hand, or by its release a moment ago) that answers 409, so a cancel that lost the race to
 * the release never reads as done.
 */
export function assertSchedulable(chapter: Pick<ChapterFacts, 'is_published'>): void {
  if (fromFlag(chapter.is_published))
    throw conflict('This chapter is already published: only a draft can be scheduled');
}

/**
 * Operators (issue 19) are the usernames of the ADMIN_USERNAMES setting, compared without case:
 * they read reports, delete any comment and suspend accounts.
 */
export function isOperator(
  adminUsernames: readonly string[],
  viewer: { username: string } | null,
): boolean {
  if (!viewer) return false;
  const name = viewer.username.toLowerCase();
  return adminUsernames.some((admin) => admin.toLowerCase() === name);
}

/**
 * The row, if it is the viewer's; otherwise 404, even to those who may read it: for what only
 * its author may know exists (a chapter's kept versions, a book's deleted chapters; issue 20).
 */
export function assertOwnsQuietly<T extends { author_id: number }>(
  row: T | undefined,
  viewer: NonNullable<AccessViewer>,
  what: string,
): T {
  if (!row || !isAuthorOf(row, viewer)) throw notFound(`${what} not found`);
  return row;
}
