import { activeAccount } from '../../access/visibility.ts';
import type { Selectable } from 'kysely';
import type { DbHandle } from '../../db/kysely.ts';
import type { UsersTable } from '../../db/schema.ts';

export type UserRow = Selectable<UsersTable>;

export async function findUserByUsername(db: DbHandle, username: string) {
  return db
    .selectFrom('users')
    .selectAll()
    .where('username_lower', '=', username.toLowerCase())
    .executeTakeFirst();
}

export async function findUserById(db: DbHandle, id: number) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertUser(
  db: DbHandle,
  user: { username: string; passwordHash: string; now: string },
) {
  return db
    .insertInto('users')
    .values({
      username: user.username,
      username_lower: user.username.toLowerCase(),
      password_hash: user.passwordHash,
      first_name: '',
      last_name: '',
      biography: '',
      email: '',
      twitter_link: '',
      facebook_link: '',
      instagram_link: '',
      created_at: user.now,
      updated_at: user.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function insertSession(
  db: DbHandle,
  session: { userId: number; tokenHash: string; now: string; expiresAt: string },
) {
  return db
    .insertInto('sessions')
    .values({
      user_id: session.userId,
      token_hash: session.tokenHash,
      created_at: session.now,
      expires_at: session.expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/**
 * Sessions that have not expired at `now`, with their user: what signs a request or socket in.
 * A suspended account's sessions are deleted; the condition on the user also refuses one made
 * in the meantime.
 */
export function liveSessions(db: DbHandle, now: string) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.id as session_id',
      'sessions.created_at as signed_in_at',
      'sessions.expires_at',
      'users.id as user_id',
      'users.username',
    ])
    .where('sessions.expires_at', '>', now)
    .where(activeAccount('users'));
}

/** The live session for a token hash, with its user; expired sessions are not answered. */
export async function findLiveSession(db: DbHandle, tokenHash: string, now: string) {
  return liveSessions(db, now).where('sessions.token_hash', '=', tokenHash).executeTakeFirst();
}

export async function deleteSession(db: DbHandle, sessionId: number) {
  await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
}

/** Which of these sessions still exist (ended sessions' rows are deleted). */
export async function findExistingSessionIds(db: DbHandle, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('sessions').select('id').where('id', 'in', ids).execute();
  return rows.map((row) => row.id);
}

export async function deleteExpiredSessions(db: DbHandle, now: string) {
  await db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
}

export async function setSuspendedAt(db: DbHandle, userId: number, at: string | null) {
  await db.updateTable('users').set({ suspended_at: at }).where('id', '=', userId).execute();
}

/** Deletes every session of the user; answers their ids. */
export async function deleteSessionsOf(db: DbHandle, userId: number): Promise<number[]> {
  const rows = await db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}
