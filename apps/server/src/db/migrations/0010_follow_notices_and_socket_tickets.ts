import { sql, type Kysely } from 'kysely';

/**
 * Two small additions of issue 24 (hardening), in one migration:
 *
 * - A FOLLOW notification goes out at most once a day per follower and author, so every follow
 *   first asks whether the author got one from this follower since yesterday. Through
 *   `notifications_user_idx (user_id, id)` that read walks the author's whole inbox, every
 *   CHAPTER row of it included; this partial index holds the FOLLOW rows only, keyed the way the
 *   question is asked. The query names the type as a literal so that both engines can prove the
 *   index applies (a bound parameter would not let them).
 *
 * - Single-use tickets for opening a WebSocket (docs/decisions/0023-socket-tickets.md): a
 *   ticket, stored hashed like a session token, lets its session open one socket within a
 *   minute. Rows live in the database so that any process can take a ticket another one issued;
 *   they go with their session, and expired ones with the hourly purge of expired sessions.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index notifications_follow_idx on notifications (user_id, follower, created_at)
    where type = 'FOLLOW'`.execute(db);

  await db.schema
    .createTable('socket_tickets')
    .addColumn('ticket_hash', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'integer', (c) =>
      c.notNull().references('sessions.id').onDelete('cascade'),
    )
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  // Deleting a session finds its tickets through this (the foreign key's check on PostgreSQL).
  await db.schema
    .createIndex('socket_tickets_session_idx')
    .on('socket_tickets')
    .column('session_id')
    .execute();
}
