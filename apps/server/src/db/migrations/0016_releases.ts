import { sql, type Kysely } from 'kysely';
import { withId, type Engine } from './columns.ts';

/**
 * Issue 20, scheduled releases, author's notes and announcements
 * (docs/decisions/0032-scheduled-releases.md).
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  // When the chapter's first publication is due (ISO-8601 UTC text, as every timestamp here);
  // null when none is scheduled. The release job claims due rows by clearing it.
  await db.schema.alterTable('chapters').addColumn('publish_at', 'text').execute();
  // The author's notes: columns of their own, so that content_text, word_count and the search
  // index, which all derive from `content`, never see them.
  for (const column of ['note_before', 'note_after'])
    await db.schema
      .alterTable('chapters')
      .addColumn(column, 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  // The release job's look every second reads only the scheduled rows.
  await sql`create index chapters_publish_at_idx on chapters (publish_at)
    where publish_at is not null`.execute(db);

  await db.schema
    .alterTable('books')
    .addColumn('show_next_release', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('books')
    .addColumn('schedule_note', 'text', (c) => c.notNull().defaultTo(''))
    .execute();

  await withId(db.schema.createTable('announcements'), engine)
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('announcements_book_idx')
    .on('announcements')
    .columns(['book_id', 'id'])
    .execute();

  // ANNOUNCEMENT notifications name their announcement, and go when it goes.
  await db.schema
    .alterTable('notifications')
    .addColumn('announcement_id', 'integer', (c) =>
      c.references('announcements.id').onDelete('cascade'),
    )
    .execute();
  // One per reader and announcement, however the reader follows (book, author or both).
  await sql`create unique index notifications_announcement_uq
    on notifications (user_id, announcement_id) where announcement_id is not null`.execute(db);
}
