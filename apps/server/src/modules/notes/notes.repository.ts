import { bookVisibleTo, chapterOrderFor, chapterVisibleTo } from '../../access/visibility.ts';
import { sql } from 'kysely';
import type { DbHandle } from '../../db/kysely.ts';

/**
 * The writer's notes, leaving out those on books or chapters they may no longer open (an
 * author who unpublished): those come back when the book or chapter does.
 */
function noteSelect(db: DbHandle, userId: number) {
  return db
    .selectFrom('notes')
    .innerJoin('books', 'books.id', 'notes.book_id')
    .leftJoin('chapters', 'chapters.id', 'notes.chapter_id')
    .select([
      'notes.id',
      'notes.book_id',
      'books.title as book_title',
      'notes.chapter_id',
      'chapters.title as chapter_title',
      chapterOrderFor(userId).as('chapter_order'),
      'notes.paragraph',
      'notes.quote',
      'notes.body',
      'notes.created_at',
      'notes.updated_at',
    ])
    .where('notes.user_id', '=', userId)
    .where(bookVisibleTo(userId))
    .where((eb) => eb.or([eb('notes.chapter_id', 'is', null), chapterVisibleTo(userId)]));
}

export type NoteRow = Awaited<ReturnType<ReturnType<typeof noteSelect>['executeTakeFirstOrThrow']>>;

export async function findNote(db: DbHandle, userId: number, id: number) {
  return noteSelect(db, userId).where('notes.id', '=', id).executeTakeFirst();
}

export async function listNotes(
  db: DbHandle,
  userId: number,
  filter: { bookId?: number; chapterId?: number; limit: number; offset: number },
) {
  let query = noteSelect(db, userId);
  if (filter.bookId !== undefined) query = query.where('notes.book_id', '=', filter.bookId);
  if (filter.chapterId !== undefined)
    query = query.where('notes.chapter_id', '=', filter.chapterId);
  const inReadingOrder = filter.bookId !== undefined || filter.chapterId !== undefined;
  query = inReadingOrder
    ? query
        // Notes on the whole book first, then by chapter and paragraph; nulls sort alike on both engines.
        .orderBy(sql`coalesce(chapters.chapter_order, 0)`)
        .orderBy(sql`coalesce(notes.paragraph, -1)`)
        .orderBy('notes.id')
    : query.orderBy('notes.updated_at', 'desc').orderBy('notes.id', 'desc');
  return query.limit(filter.limit).offset(filter.offset).execute();
}

export async function insertNote(
  db: DbHandle,
  note: {
    userId: number;
    bookId: number;
    chapterId: number | null;
    paragraph: number | null;
    quote: string | null;
    body: string;
    now: string;
  },
) {
  const { id } = await db
    .insertInto('notes')
    .values({
      user_id: note.userId,
      book_id: note.bookId,
      chapter_id: note.chapterId,
      paragraph: note.paragraph,
      quote: note.quote,
      body: note.body,
      created_at: note.now,
      updated_at: note.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateNoteBody(
  db: DbHandle,
  userId: number,
  id: number,
  body: string,
  now: string,
) {
  await db
    .updateTable('notes')
    .set({ body, updated_at: now })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .execute();
}

export async function deleteNote(db: DbHandle, userId: number, id: number) {
  await db.deleteFrom('notes').where('id', '=', id).where('user_id', '=', userId).execute();
}
