import { sql } from 'kysely';
import { publicChapter } from '../../access/visibility.ts';
import type { DbHandle } from '../../db/kysely.ts';

/** Adds the follow; a repeat changes nothing (the primary key decides, also between racing calls). */
export async function insertBookFollow(
  db: DbHandle,
  follow: { userId: number; bookId: number; now: string },
): Promise<void> {
  await db
    .insertInto('book_follows')
    .values({ user_id: follow.userId, book_id: follow.bookId, created_at: follow.now })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function deleteBookFollow(db: DbHandle, userId: number, bookId: number) {
  await db
    .deleteFrom('book_follows')
    .where('user_id', '=', userId)
    .where('book_id', '=', bookId)
    .execute();
}

/** The book's follower count and whether `viewerId` is one of them, in one statement. */
export async function followFacts(
  db: DbHandle,
  bookId: number,
  viewerId: number | null,
): Promise<{ followers: number; following: boolean }> {
  const row = await db
    .selectFrom('book_follows')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('followers'),
      sql<number | string | null>`sum(case when user_id = ${viewerId ?? 0} then 1 else 0 end)`.as(
        'mine',
      ),
    ])
    .where('book_id', '=', bookId)
    .executeTakeFirstOrThrow();
  return { followers: Number(row.followers), following: Number(row.mine ?? 0) > 0 };
}

/** Ids of the books a user follows, most recently followed first. */
export async function followedBookIds(db: DbHandle, userId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('book_follows')
    .select('book_id')
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('book_id', 'desc')
    .execute();
  return rows.map((row) => row.book_id);
}

/**
 * For each of `bookIds`: how many of its chapters anyone may read (published, in a published
 * book) the reader has no read-history entry for. One grouped statement per list; books with
 * none are left out.
 */
export async function unreadCounts(
  db: DbHandle,
  userId: number,
  bookIds: readonly number[],
): Promise<Map<number, number>> {
  if (bookIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('chapters')
    .innerJoin('books', 'books.id', 'chapters.book_id')
    .select((eb) => ['chapters.book_id', eb.fn.countAll<number | string>().as('unread')])
    .where('chapters.book_id', 'in', bookIds)
    .where(publicChapter())
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('read_history as rh')
            .select('rh.id')
            .where('rh.user_id', '=', userId)
            .whereRef('rh.chapter_id', '=', 'chapters.id'),
        ),
      ),
    )
    .groupBy('chapters.book_id')
    .execute();
  return new Map(rows.map((row) => [row.book_id, Number(row.unread)]));
}

/**
 * Blocking (issue 19): the blocked user's follows of the blocker (as an author) and of the
 * blocker's books go, in one transaction with the block, so no CHAPTER news reaches them.
 */
export async function deleteFollowsOfAuthor(db: DbHandle, userId: number, authorId: number) {
  await db
    .deleteFrom('follows')
    .where('follower_id', '=', userId)
    .where('author_id', '=', authorId)
    .execute();
  await db
    .deleteFrom('book_follows')
    .where('user_id', '=', userId)
    .where('book_id', 'in', (eb) =>
      eb.selectFrom('books').select('books.id').where('books.author_id', '=', authorId),
    )
    .execute();
}
