import { chapterVisibleTo } from '../../access/visibility.ts';
import type { DbHandle } from '../../db/kysely.ts';

/**
 * Records a read unless the reader already has one for the chapter. The row is built from the
 * chapter itself, so a chapter deleted meanwhile inserts nothing instead of breaking a foreign key.
 * Answers whether a row was inserted.
 */
export async function insertRead(
  db: DbHandle,
  read: { userId: number; chapterId: number; readAt: string },
): Promise<boolean> {
  const result = await db
    .insertInto('read_history')
    .columns(['user_id', 'book_id', 'chapter_id', 'read_at'])
    .expression((eb) =>
      eb
        .selectFrom('chapters')
        .select([
          eb.cast<number>(eb.val(read.userId), 'integer').as('user_id'),
          'chapters.book_id',
          'chapters.id',
          eb.cast<string>(eb.val(read.readAt), 'text').as('read_at'),
        ])
        .where('chapters.id', '=', read.chapterId),
    )
    .onConflict((oc) => oc.columns(['user_id', 'chapter_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function hasRead(db: DbHandle, userId: number, chapterId: number): Promise<boolean> {
  const row = await db
    .selectFrom('read_history')
    .select('id')
    .where('user_id', '=', userId)
    .where('chapter_id', '=', chapterId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The reader's history, newest first, leaving out what is no longer visible to them. */
export async function listReads(
  db: DbHandle,
  userId: number,
  page: { limit: number; offset: number },
) {
  return db
    .selectFrom('read_history')
    .innerJoin('chapters', 'chapters.id', 'read_history.chapter_id')
    .innerJoin('books', 'books.id', 'chapters.book_id')
    .select([
      'books.id as book_id',
      'books.title as book_title',
      'books.cover as book_cover',
      'chapters.id as chapter_id',
      'chapters.title as chapter_title',
      'read_history.read_at',
    ])
    .where('read_history.user_id', '=', userId)
    .where(chapterVisibleTo(userId))
    .orderBy('read_history.read_at', 'desc')
    .orderBy('read_history.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** Answers whether there was an entry to delete. */
export async function deleteRead(
  db: DbHandle,
  userId: number,
  chapterId: number,
): Promise<boolean> {
  const result = await db
    .deleteFrom('read_history')
    .where('user_id', '=', userId)
    .where('chapter_id', '=', chapterId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
