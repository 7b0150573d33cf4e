import { sql, type Kysely } from 'kysely';

type Engine = 'sqlite' | 'postgres';

/**
 * The notification inbox: one row per recipient and event, so a reader who was offline still
 * sees what the live stream pushed. book_id and chapter_id carry no foreign key on purpose: a
 * notification is a record of what happened, and deleting the book must not make the fan-out
 * insert of a concurrent publication fail.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const table = db.schema.createTable('notifications');
  await (
    engine === 'postgres'
      ? table.addColumn('id', 'serial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
  )
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('book_id', 'integer')
    .addColumn('chapter_id', 'integer')
    .addColumn('follower', 'text')
    .addColumn('is_read', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // The inbox page (newest first) and the unread count both start from the recipient.
  await db.schema
    .createIndex('notifications_user_idx')
    .on('notifications')
    .columns(['user_id', 'id'])
    .execute();
  await sql`create index notifications_unread_idx on notifications (user_id) where is_read = 0`.execute(
    db,
  );
  // A chapter is news once: even if its publication were announced twice, each reader keeps one row.
  await sql`create unique index notifications_chapter_uq on notifications (user_id, chapter_id)
    where type = 'CHAPTER'`.execute(db);
}
