import type { BookFilter, BookFollowState, FollowedBook } from '@inkwell/contract';
import { isAuthorOf } from '../../access/policy.ts';
import type { AppContext, Viewer } from '../../context.ts';
import type { DbHandle } from '../../db/kysely.ts';
import { nowIso } from '../../lib/convert.ts';
import { badRequest } from '../../lib/errors.ts';
import { assertNotBlockedBy } from '../blocks/blocks.service.ts';
import {
  getVisibleBookAccess,
  listVisibleBooksFor,
  type FilteredBooks,
} from '../books/books.service.ts';
import * as bookFollows from './book-follows.repository.ts';

/*
 * Follows of books (issue 19). A follower of a book gets its CHAPTER news (the notifications
 * module reads book_follows beside follows, once per reader) and its chapters in their Atom feed.
 *
 * The follower count on GET /api/books/{id}: a visitor's answer is kept by the read cache until
 * a `book.changed` (decision 0013). A follow does NOT publish `book.changed`: that event empties
 * every kept answer on every process, and follows are frequent, so the count a visitor sees may
 * be up to READ_CACHE_MAX_AGE_SECONDS old. A signed-in viewer's answer is never cached, so their
 * `following` (and the count they see) is always read afresh.
 */

/** The follower count and, for a signed-in viewer, whether they follow: for GET /api/books/{id}. */
export function bookFollowFacts(
  ctx: Pick<AppContext, 'db'>,
  bookId: number,
  viewer: Viewer | null,
): Promise<{ followers: number; following: boolean }> {
  return bookFollows.followFacts(ctx.db, bookId, viewer?.id ?? null);
}

async function stateAfter(
  ctx: AppContext,
  viewer: Viewer,
  bookId: number,
): Promise<BookFollowState> {
  const facts = await bookFollows.followFacts(ctx.db, bookId, viewer.id);
  return { book_id: bookId, ...facts };
}

/**
 * Follows a book the viewer may see (404 otherwise); not their own (400), not one whose author
 * blocked them (403). A repeat answers the same state and leaves one follow.
 */
export async function followBook(
  ctx: AppContext,
  viewer: Viewer,
  bookId: number,
): Promise<BookFollowState> {
  const book = await getVisibleBookAccess(ctx, viewer, bookId);
  if (isAuthorOf(book, viewer)) throw badRequest('You cannot follow your own book');
  await assertNotBlockedBy(ctx, book.author_id, viewer.id);
  await bookFollows.insertBookFollow(ctx.db, { userId: viewer.id, bookId, now: nowIso() });
  return stateAfter(ctx, viewer, bookId);
}

/** Stops following a book the viewer may see (404 otherwise); a repeat is no error. */
export async function unfollowBook(
  ctx: AppContext,
  viewer: Viewer,
  bookId: number,
): Promise<BookFollowState> {
  await getVisibleBookAccess(ctx, viewer, bookId);
  await bookFollows.deleteBookFollow(ctx.db, viewer.id, bookId);
  return stateAfter(ctx, viewer, bookId);
}

/**
 * The books the viewer follows, most recently followed first, as cards with the number of
 * published chapters and how many of them the viewer has not read. Books they can no longer see
 * (unpublished since) are left out, but their follow stays: publishing again brings them back;
 * so are those the reader's saved exclusions remove (issue 21), unless `filters` is 'off'.
 */
export async function listFollowedBooks(
  ctx: AppContext,
  viewer: Viewer,
  filters: BookFilter['filters'],
): Promise<FilteredBooks<FollowedBook>> {
  const ids = await bookFollows.followedBookIds(ctx.db, viewer.id);
  const { books: cards, hidden } = await listVisibleBooksFor(ctx, viewer, ids, filters);
  const unread = await bookFollows.unreadCounts(
    ctx.db,
    viewer.id,
    cards.map((card) => card.id),
  );
  // A follower never owns the book (following one's own is refused), so the card's chapter
  // count is of published chapters.
  const books = cards.map((card) => ({
    ...card,
    chapters: card.chapter_count,
    unread: unread.get(card.id) ?? 0,
  }));
  return { books, hidden };
}

/**
 * What a block undoes (issue 19): the blocked user's follows of the blocker and of the
 * blocker's books are removed, in the blocker's transaction, so the blocked user gets none of
 * their news. Following again is refused while the block stands; unblocking does not restore them.
 */
export function dropFollowsOfBlocker(
  db: DbHandle,
  blockedId: number,
  blockerId: number,
): Promise<void> {
  return bookFollows.deleteFollowsOfAuthor(db, blockedId, blockerId);
}
