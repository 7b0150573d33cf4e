import { activeAccount } from '../../access/visibility.ts';
import type { DbHandle } from '../../db/kysely.ts';

/**
 * Scheduled chapters whose time has come (issue 20), the earliest first, with their author: what
 * the release job hands, one at a time, to the publishing path, whose UPDATE claims each row.
 * A suspended author's schedule waits, as they could not publish by hand; it goes on when an
 * operator lifts the suspension.
 */
export async function dueChapters(db: DbHandle, now: string, limit: number) {
  return db
    .selectFrom('chapters')
    .innerJoin('books', 'books.id', 'chapters.book_id')
    .innerJoin('users', 'users.id', 'books.author_id')
    .select([
      'chapters.id as chapter_id',
      'chapters.book_id',
      'books.author_id',
      'users.username as author_username',
    ])
    .where('chapters.publish_at', '<=', now)
    .where(activeAccount('users'))
    .orderBy('chapters.publish_at')
    .orderBy('chapters.id')
    .limit(limit)
    .execute();
}

const ANNOUNCEMENT_COLUMNS = [
  'announcements.id',
  'announcements.title',
  'announcements.body',
  'announcements.created_at',
] as const;

export async function insertAnnouncement(
  db: DbHandle,
  announcement: { bookId: number; title: string; body: string; now: string },
) {
  return db
    .insertInto('announcements')
    .values({
      book_id: announcement.bookId,
      title: announcement.title,
      body: announcement.body,
      created_at: announcement.now,
    })
    .returning(ANNOUNCEMENT_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** A book's newest announcements first. */
export async function listAnnouncements(db: DbHandle, bookId: number, limit: number) {
  return db
    .selectFrom('announcements')
    .select(ANNOUNCEMENT_COLUMNS)
    .where('book_id', '=', bookId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** An announcement with its book's author (only the author may delete it). */
export async function findAnnouncement(db: DbHandle, id: number) {
  return db
    .selectFrom('announcements')
    .innerJoin('books', 'books.id', 'announcements.book_id')
    .select(['announcements.id', 'announcements.book_id', 'books.author_id'])
    .where('announcements.id', '=', id)
    .executeTakeFirst();
}

export async function deleteAnnouncement(db: DbHandle, id: number) {
  await db.deleteFrom('announcements').where('id', '=', id).execute();
}
