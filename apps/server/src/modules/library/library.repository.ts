import {
  bookVisibleTo,
  chapterOrderFor,
  chapterVisibleTo,
  published,
} from '../../access/visibility.ts';
import type { DbHandle } from '../../db/kysely.ts';
import type { Flag, LibraryEntriesTable } from '../../db/schema.ts';

export type ShelfColumn = LibraryEntriesTable['status'];

/**
 * Books the reader may see (published, or their own), each with the reader's shelf state,
 * chapter counts and saved position; the book cards themselves come from the books service.
 * The position is dropped when its chapter is no longer one the reader may open, so "Continue
 * reading" never leads to a 404.
 */
function entrySelect(db: DbHandle, userId: number) {
  return db
    .selectFrom('books')
    .leftJoin('library_entries as le', (join) =>
      join.onRef('le.book_id', '=', 'books.id').on('le.user_id', '=', userId),
    )
    .leftJoin('reading_positions as rp', (join) =>
      join.onRef('rp.book_id', '=', 'books.id').on('rp.user_id', '=', userId),
    )
    .leftJoin('chapters as pc', (join) =>
      join.onRef('pc.id', '=', 'rp.chapter_id').on(chapterVisibleTo(userId, 'pc')),
    )
    .where(bookVisibleTo(userId))
    .select([
      'books.id',
      'le.status',
      'le.owned',
      'le.updated_at as entry_updated_at',
      'pc.id as position_chapter_id',
      'pc.title as position_chapter_title',
      chapterOrderFor(userId, 'pc').as('position_chapter_order'),
      'rp.paragraph as position_paragraph',
      'rp.char_offset as position_offset',
      'rp.updated_at as position_updated_at',
    ])
    .select((eb) => [
      eb
        .selectFrom('chapters')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('chapters.book_id', '=', 'books.id')
        .where(published('chapters'))
        .as('total_chapters'),
      // read_history holds one row per reader and chapter, so counting rows counts distinct chapters.
      eb
        .selectFrom('read_history')
        .innerJoin('chapters as rc', 'rc.id', 'read_history.chapter_id')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('read_history.book_id', '=', 'books.id')
        .where('read_history.user_id', '=', userId)
        .where(published('rc'))
        .as('chapters_read'),
      eb
        .selectFrom('read_history')
        .select((s) => s.fn.max('read_history.read_at').as('m'))
        .whereRef('read_history.book_id', '=', 'books.id')
        .where('read_history.user_id', '=', userId)
        .as('last_history_at'),
    ]);
}

export type LibraryRow = Awaited<
  ReturnType<ReturnType<typeof entrySelect>['executeTakeFirstOrThrow']>
>;

/** One visible book with the reader's state, or undefined when the reader may not see it. */
export async function findEntry(db: DbHandle, userId: number, bookId: number) {
  return entrySelect(db, userId).where('books.id', '=', bookId).executeTakeFirst();
}

/** Every visible book in the reader's library (on a shelf or owned). */
export async function listEntries(db: DbHandle, userId: number) {
  return entrySelect(db, userId).where('le.user_id', 'is not', null).execute();
}

export async function findShelfState(db: DbHandle, userId: number, bookId: number) {
  return db
    .selectFrom('library_entries')
    .select(['status', 'owned'])
    .where('user_id', '=', userId)
    .where('book_id', '=', bookId)
    .executeTakeFirst();
}

export async function upsertShelfState(
  db: DbHandle,
  entry: { userId: number; bookId: number; status: ShelfColumn; owned: Flag; now: string },
) {
  await db
    .insertInto('library_entries')
    .values({
      user_id: entry.userId,
      book_id: entry.bookId,
      status: entry.status,
      owned: entry.owned,
      created_at: entry.now,
      updated_at: entry.now,
    })
    .onConflict((oc) =>
      oc.columns(['user_id', 'book_id']).doUpdateSet({
        status: entry.status,
        owned: entry.owned,
        updated_at: entry.now,
      }),
    )
    .execute();
}

export async function deleteShelfState(db: DbHandle, userId: number, bookId: number) {
  await db
    .deleteFrom('library_entries')
    .where('user_id', '=', userId)
    .where('book_id', '=', bookId)
    .execute();
}

/** Puts the book on the 'reading' shelf unless the reader already chose a shelf for it. */
export async function shelveAsReadingUnlessShelved(
  db: DbHandle,
  userId: number,
  bookId: number,
  now: string,
) {
  await db
    .insertInto('library_entries')
    .values({
      user_id: userId,
      book_id: bookId,
      status: 'reading',
      owned: 0,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc
        .columns(['user_id', 'book_id'])
        .doUpdateSet({ status: 'reading', updated_at: now })
        .where('library_entries.status', 'is', null),
    )
    .execute();
}

export async function upsertPosition(
  db: DbHandle,
  position: {
    userId: number;
    bookId: number;
    chapterId: number;
    paragraph: number;
    offset: number;
    now: string;
  },
) {
  const values = {
    chapter_id: position.chapterId,
    paragraph: position.paragraph,
    char_offset: position.offset,
    updated_at: position.now,
  };
  await db
    .insertInto('reading_positions')
    .values({ user_id: position.userId, book_id: position.bookId, ...values })
    .onConflict((oc) => oc.columns(['user_id', 'book_id']).doUpdateSet(values))
    .execute();
}
