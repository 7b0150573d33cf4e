import type { DbHandle } from '../../db/kysely.ts';
import { liveSessions } from './accounts.repository.ts';

/** Socket tickets (migration 0010): single-use, short-lived, stored hashed like session tokens. */

export async function insertSocketTicket(
  db: DbHandle,
  ticket: { ticketHash: string; sessionId: number; expiresAt: string },
): Promise<void> {
  await db
    .insertInto('socket_tickets')
    .values({
      ticket_hash: ticket.ticketHash,
      session_id: ticket.sessionId,
      expires_at: ticket.expiresAt,
    })
    .execute();
}

/**
 * Uses up a ticket that has not expired: the row is deleted by the same statement that reads it,
 * so of two processes racing with one ticket only one gets its session id.
 */
export async function takeSocketTicket(
  db: DbHandle,
  ticketHash: string,
  now: string,
): Promise<number | undefined> {
  const row = await db
    .deleteFrom('socket_tickets')
    .where('ticket_hash', '=', ticketHash)
    .where('expires_at', '>', now)
    .returning('session_id')
    .executeTakeFirst();
  return row?.session_id;
}

/** A session that has not expired, by id, with its user: whom a ticket signs in. */
export async function findLiveSessionById(db: DbHandle, sessionId: number, now: string) {
  return liveSessions(db, now).where('sessions.id', '=', sessionId).executeTakeFirst();
}

export async function deleteExpiredSocketTickets(db: DbHandle, now: string): Promise<void> {
  await db.deleteFrom('socket_tickets').where('expires_at', '<=', now).execute();
}
