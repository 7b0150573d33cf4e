import { NO_EXCLUSIONS, notExcluded, type Exclusions } from '../../access/book-filters.ts';
import { publicChapter } from '../../access/visibility.ts';
import { FEED_MAX_ENTRIES } from '@inkwell/contract';
import { sql } from 'kysely';
import type { DbHandle } from '../../db/kysely.ts';

/** Characters of a chapter's HTML read for its summary: a few hundred of text, with their tags. */
const SUMMARY_SOURCE_LENGTH = 2000;

/** When a chapter became news: its first publication (older rows may lack it; their last change stands in). */
const publishedAt = sql<string>`coalesce(chapters.first_published_at, chapters.updated_at)`;

/** Published chapters of published books, newest publication first. Drafts can never match. */
function publishedChapters(db: DbHandle) {
  return db
    .selectFrom('chapters')
    .innerJoin('books', 'books.id', 'chapters.book_id')
    .innerJoin('users', 'users.id', 'books.author_id')
    .where(publicChapter())
    .select([
      'chapters.id',
      'chapters.title',
      'chapters.book_id',
      'books.title as book_title',
      'users.username as author_username',
      'users.first_name as author_first_name',
      'users.last_name as author_last_name',
      publishedAt.as('published_at'),
      // The start of the HTML is enough for a summary; never ship a whole chapter per entry.
      sql<string>`substr(chapters.content, 1, ${SUMMARY_SOURCE_LENGTH})`.as('content_start'),
    ])
    .orderBy(publishedAt, 'desc')
    .orderBy('chapters.id', 'desc')
    .limit(FEED_MAX_ENTRIES);
}

export type FeedChapterRow = Awaited<
  ReturnType<ReturnType<typeof publishedChapters>['execute']>
>[number];

export async function chaptersOfBook(db: DbHandle, bookId: number) {
  return publishedChapters(db).where('chapters.book_id', '=', bookId).execute();
}

export async function chaptersOfAuthor(db: DbHandle, authorId: number) {
  return publishedChapters(db).where('books.author_id', '=', authorId).execute();
}

/**
 * Chapters of the authors the reader follows and of the books they follow (issue 19): one
 * condition on each chapter row, so a chapter whose book and author are both followed is one
 * entry, not two.
 */
export async function chaptersFollowedBy(
  db: DbHandle,
  userId: number,
  exclusions: Exclusions = NO_EXCLUSIONS,
) {
  return publishedChapters(db)
    .where(notExcluded(exclusions))
    .where((eb) =>
      eb.or([
        eb(
          'books.author_id',
          'in',
          eb
            .selectFrom('follows')
            .select('follows.author_id')
            .where('follows.follower_id', '=', userId),
        ),
        eb(
          'books.id',
          'in',
          eb
            .selectFrom('book_follows')
            .select('book_follows.book_id')
            .where('book_follows.user_id', '=', userId),
        ),
      ]),
    )
    .execute();
}

export async function findFeedOwner(db: DbHandle, tokenHash: string) {
  return db
    .selectFrom('feed_tokens')
    .innerJoin('users', 'users.id', 'feed_tokens.user_id')
    .select(['users.id', 'users.username', 'users.first_name', 'users.last_name'])
    .where('feed_tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function findFeedToken(db: DbHandle, userId: number) {
  return db
    .selectFrom('feed_tokens')
    .select('created_at')
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** One token per reader: a new one replaces the old, which stops working at once. */
export async function replaceFeedToken(
  db: DbHandle,
  userId: number,
  tokenHash: string,
  now: string,
) {
  await db
    .insertInto('feed_tokens')
    .values({ user_id: userId, token_hash: tokenHash, created_at: now })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({ token_hash: tokenHash, created_at: now }),
    )
    .execute();
}

export async function deleteFeedToken(db: DbHandle, userId: number) {
  await db.deleteFrom('feed_tokens').where('user_id', '=', userId).execute();
}
