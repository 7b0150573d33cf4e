import { publicChapter, readingOrder } from '../../access/visibility.ts';
import { listCondition, NO_FILTER, type ListFilter } from '../../access/book-filters.ts';
import type { Updateable } from 'kysely';
import type { DbHandle } from '../../db/kysely.ts';
import type { UsersTable } from '../../db/schema.ts';
import { PROFILE_COLUMNS } from '../../presenters/user.ts';

/** Public profile columns only: nothing private (email, password hash) is ever read here. */
function profiles(db: DbHandle) {
  return db.selectFrom('users').select(PROFILE_COLUMNS);
}

export type ProfileRow = Awaited<
  ReturnType<ReturnType<typeof profiles>['executeTakeFirstOrThrow']>
>;

export async function findProfileById(db: DbHandle, id: number) {
  return profiles(db).where('users.id', '=', id).executeTakeFirst();
}

export async function findProfileByUsername(db: DbHandle, username: string) {
  return profiles(db).where('users.username_lower', '=', username.toLowerCase()).executeTakeFirst();
}

export async function listProfiles(db: DbHandle, page: { limit: number; offset: number }) {
  return profiles(db).orderBy('users.id').limit(page.limit).offset(page.offset).execute();
}

/** Profiles for a set of ids, in no particular order (callers order them by their own ranking). */
export async function listProfilesByIds(db: DbHandle, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return profiles(db).where('users.id', 'in', ids).execute();
}

/** Profiles for a set of usernames (case-insensitive), in no particular order. */
export async function listProfilesByUsernames(db: DbHandle, usernames: readonly string[]) {
  if (usernames.length === 0) return [];
  return profiles(db)
    .where(
      'users.username_lower',
      'in',
      usernames.map((u) => u.toLowerCase()),
    )
    .execute();
}

export async function usernameTakenByOther(db: DbHandle, username: string, userId: number) {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('username_lower', '=', username.toLowerCase())
    .where('id', '!=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

export type UserChanges = Pick<
  Updateable<UsersTable>,
  | 'username'
  | 'username_lower'
  | 'password_hash'
  | 'first_name'
  | 'last_name'
  | 'biography'
  | 'email'
  | 'twitter_link'
  | 'facebook_link'
  | 'instagram_link'
  | 'avatar'
  | 'reader_settings'
  | 'updated_at'
>;

export async function updateUser(db: DbHandle, userId: number, changes: UserChanges) {
  await db.updateTable('users').set(changes).where('id', '=', userId).execute();
}

/** Ends every session of a user but the one making the request; answers the ids it ended. */
export async function deleteOtherSessions(db: DbHandle, userId: number, keepSessionId: number) {
  const ended = await db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .where('id', '!=', keepSessionId)
    .returning('id')
    .execute();
  return ended.map((row) => row.id);
}

export async function findReaderSettings(db: DbHandle, userId: number) {
  const row = await db
    .selectFrom('users')
    .select('reader_settings')
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.reader_settings ?? null;
}

/**
 * Published chapters of the author's published books, most recently updated first, of the books
 * `list` leaves (a reader's exclusions).
 */
export async function listRecentChapters(
  db: DbHandle,
  authorId: number,
  page: { limit: number; offset: number },
  list: ListFilter = NO_FILTER,
) {
  return db
    .selectFrom('chapters')
    .innerJoin('books', 'books.id', 'chapters.book_id')
    .select([
      'chapters.id',
      'chapters.title',
      'chapters.book_id',
      'books.title as book_title',
      'books.cover',
      readingOrder().as('chapter_order'),
      'chapters.created_at',
      'chapters.updated_at',
    ])
    .where('books.author_id', '=', authorId)
    .where(publicChapter())
    .where(listCondition(list))
    .orderBy('chapters.updated_at', 'desc')
    .orderBy('chapters.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}
