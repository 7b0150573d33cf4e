import { sql } from 'kysely';
import { commentCountedFor, publicChapter, published } from '../../access/visibility.ts';
import type { DbHandle } from '../../db/kysely.ts';

/*
 * The SQL of the reader statistics (issue 20). Every figure is an aggregate: no query here
 * answers who a reader is, only how many there are. A book's author never counts as its reader.
 */

/** What the owner check needs of a book. */
export function findStatsBook(db: DbHandle, bookId: number) {
  return db
    .selectFrom('books')
    .select(['id', 'author_id'])
    .where('id', '=', bookId)
    .executeTakeFirst();
}

/** The book's published chapters, in reading order: the chapters the statistics cover. */
export function publishedChapters(db: DbHandle, bookId: number) {
  return db
    .selectFrom('chapters')
    .select(['id', 'chapter_order', 'title'])
    .where('book_id', '=', bookId)
    .where(published('chapters'))
    .orderBy('chapter_order')
    .orderBy('id')
    .execute();
}

/** How many readers got no further than each chapter order (their furthest published chapter). */
export interface ReachCount {
  reach: number;
  readers: number;
}

const toReach = (rows: { reach: number | string; readers: number | string }[]): ReachCount[] =>
  rows.map((row) => ({ reach: Number(row.reach), readers: Number(row.readers) }));

/**
 * Signed-in readers by the furthest published chapter their history or their saved progress
 * reached. Both are found through the book's chapters (read_history and reading_positions are
 * indexed by chapter).
 */
export async function signedInReach(
  db: DbHandle,
  bookId: number,
  authorId: number,
): Promise<ReachCount[]> {
  const history = db
    .selectFrom('chapters as c')
    .innerJoin('read_history as r', 'r.chapter_id', 'c.id')
    .select(['r.user_id as reader', 'c.chapter_order as chapter_order'])
    .where('c.book_id', '=', bookId)
    .where(published('c'));
  const progress = db
    .selectFrom('chapters as c')
    .innerJoin('reading_positions as p', 'p.chapter_id', 'c.id')
    .select(['p.user_id as reader', 'c.chapter_order as chapter_order'])
    .where('c.book_id', '=', bookId)
    .where(published('c'));
  const perReader = db
    .selectFrom(history.unionAll(progress).as('seen'))
    .select((eb) => ['seen.reader', eb.fn.max('seen.chapter_order').as('reach')])
    .where('seen.reader', '<>', authorId)
    .groupBy('seen.reader');
  const rows = await db
    .selectFrom(perReader.as('readers'))
    .select((eb) => ['readers.reach', eb.fn.countAll<number | string>().as('readers')])
    .groupBy('readers.reach')
    .execute();
  return toReach(rows);
}

/** Visitors' browser sessions by the furthest published chapter they viewed. */
export async function sessionReach(db: DbHandle, bookId: number): Promise<ReachCount[]> {
  const perSession = db
    .selectFrom('chapters as c')
    .innerJoin('chapter_views as v', 'v.chapter_id', 'c.id')
    .select((eb) => ['v.session', eb.fn.max('c.chapter_order').as('reach')])
    .where('c.book_id', '=', bookId)
    .where(published('c'))
    .groupBy('v.session');
  const rows = await db
    .selectFrom(perSession.as('sessions'))
    .select((eb) => ['sessions.reach', eb.fn.countAll<number | string>().as('readers')])
    .groupBy('sessions.reach')
    .execute();
  return toReach(rows);
}

const toCounts = (rows: { chapter_id: number; count: number | string }[]) =>
  new Map(rows.map((row) => [row.chapter_id, Number(row.count)]));

/** Likes per chapter of the book. */
export async function likeCounts(db: DbHandle, bookId: number): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('chapter_likes as l')
    .innerJoin('chapters as c', 'c.id', 'l.chapter_id')
    .select((eb) => ['l.chapter_id', eb.fn.countAll<number | string>().as('count')])
    .where('c.book_id', '=', bookId)
    .groupBy('l.chapter_id')
    .execute();
  return toCounts(rows);
}

/** Comments per chapter as visitors count them (the reader's rule: `commentCountedFor`). */
export async function commentCounts(db: DbHandle, bookId: number): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('comments')
    .innerJoin('books', 'books.id', 'comments.book_id')
    .select((eb) => ['comments.chapter_id', eb.fn.countAll<number | string>().as('count')])
    .where('comments.book_id', '=', bookId)
    .where(commentCountedFor(null))
    .groupBy('comments.chapter_id')
    .execute();
  return toCounts(rows);
}

/** The book's followers now. */
export async function followerCount(db: DbHandle, bookId: number): Promise<number> {
  const row = await db
    .selectFrom('book_follows')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('book_id', '=', bookId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Follows minus unfollows of the book before `since` (an ISO day), and per UTC day from then on
 * (days without a change are left out).
 */
export async function followerChanges(
  db: DbHandle,
  bookId: number,
  since: string,
): Promise<{ before: number; days: { day: string; delta: number }[] }> {
  const before = await db
    .selectFrom('book_follow_changes')
    .select((eb) => eb.fn.sum<number | string | null>('delta').as('delta'))
    .where('book_id', '=', bookId)
    .where('changed_at', '<', since)
    .executeTakeFirstOrThrow();
  const day = sql<string>`substr(changed_at, 1, 10)`;
  const days = await db
    .selectFrom('book_follow_changes')
    .select((eb) => [day.as('day'), eb.fn.sum<number | string>('delta').as('delta')])
    .where('book_id', '=', bookId)
    .where('changed_at', '>=', since)
    .groupBy(day)
    .execute();
  return {
    before: Number(before.delta ?? 0),
    days: days.map((row) => ({ day: row.day, delta: Number(row.delta) })),
  };
}

/** A published chapter of the book, with its content (to count its paragraphs). */
export function findPublishedChapter(db: DbHandle, bookId: number, chapterId: number) {
  return db
    .selectFrom('chapters')
    .select(['id', 'content'])
    .where('id', '=', chapterId)
    .where('book_id', '=', bookId)
    .where(published('chapters'))
    .executeTakeFirst();
}

/** Readers whose saved progress stops in the chapter, per paragraph (the author left out). */
export async function progressStops(
  db: DbHandle,
  chapterId: number,
  authorId: number,
): Promise<{ paragraph: number; readers: number }[]> {
  const rows = await db
    .selectFrom('reading_positions')
    .select((eb) => ['paragraph', eb.fn.countAll<number | string>().as('readers')])
    .where('chapter_id', '=', chapterId)
    .where('user_id', '<>', authorId)
    .groupBy('paragraph')
    .execute();
  return rows.map((row) => ({ paragraph: row.paragraph, readers: Number(row.readers) }));
}

/** Ids per query: one parameter each, well under SQLite's limit of 32,766 (a batch holds more). */
const IDS_PER_QUERY = 10_000;

/** Of `chapterIds`, those any visitor may read now (views of others are not kept). */
export async function publicChapterIds(
  db: DbHandle,
  chapterIds: readonly number[],
): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < chapterIds.length; i += IDS_PER_QUERY) {
    const rows = await db
      .selectFrom('chapters')
      .innerJoin('books', 'books.id', 'chapters.book_id')
      .select('chapters.id')
      .where('chapters.id', 'in', chapterIds.slice(i, i + IDS_PER_QUERY))
      .where(publicChapter())
      .execute();
    ids.push(...rows.map((row) => row.id));
  }
  return ids;
}

/** Rows per insert: three parameters each, well under SQLite's limit of 32,766. */
const VIEW_ROWS_PER_INSERT = 1000;

/** Keeps views; a chapter and session kept already stays as it was (the primary key decides). */
export async function insertViews(
  db: DbHandle,
  views: readonly { chapter_id: number; session: string }[],
  now: string,
): Promise<void> {
  for (let i = 0; i < views.length; i += VIEW_ROWS_PER_INSERT) {
    await db
      .insertInto('chapter_views')
      .values(views.slice(i, i + VIEW_ROWS_PER_INSERT).map((view) => ({ ...view, viewed_at: now })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}
