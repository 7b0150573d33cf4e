import type { Kysely } from 'kysely';
import { withId, type Engine } from './columns.ts';

/**
 * Shelves, reading positions, private notes, import jobs and private feed tokens
 * (docs/decisions/0005-library-notes-import.md).
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  // One row per reader and book while the book is on a shelf or owned; status null means "no shelf".
  await db.schema
    .createTable('library_entries')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('status', 'text')
    .addColumn('owned', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('library_entries_pk', ['user_id', 'book_id'])
    .execute();
  await db.schema
    .createIndex('library_entries_book_idx')
    .on('library_entries')
    .column('book_id')
    .execute();

  // The last place a reader was in a book. "offset" is reserved in SQL, hence char_offset.
  await db.schema
    .createTable('reading_positions')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('chapter_id', 'integer', (c) =>
      c.notNull().references('chapters.id').onDelete('cascade'),
    )
    .addColumn('paragraph', 'integer', (c) => c.notNull())
    .addColumn('char_offset', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('reading_positions_pk', ['user_id', 'book_id'])
    .execute();
  await db.schema
    .createIndex('reading_positions_chapter_idx')
    .on('reading_positions')
    .column('chapter_id')
    .execute();

  // A deleted chapter turns its notes into notes on the book: the writer keeps what they wrote.
  await withId(db.schema.createTable('notes'), engine)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('chapter_id', 'integer', (c) => c.references('chapters.id').onDelete('set null'))
    .addColumn('paragraph', 'integer')
    .addColumn('quote', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('notes_user_book_idx')
    .on('notes')
    .columns(['user_id', 'book_id'])
    .execute();
  await db.schema.createIndex('notes_chapter_idx').on('notes').column('chapter_id').execute();

  // Import jobs outlive the request that made them; heartbeat_at tells live jobs from orphans.
  await withId(db.schema.createTable('import_jobs'), engine)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('keep_front_matter', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('book_id', 'integer', (c) => c.references('books.id').onDelete('set null'))
    .addColumn('chapter_count', 'integer')
    .addColumn('source_title', 'text')
    .addColumn('source_author', 'text')
    .addColumn('warnings', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('runner', 'text', (c) => c.notNull())
    .addColumn('heartbeat_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema
    .createIndex('import_jobs_user_idx')
    .on('import_jobs')
    .columns(['user_id', 'id'])
    .execute();
  await db.schema
    .createIndex('import_jobs_status_idx')
    .on('import_jobs')
    .columns(['status', 'heartbeat_at'])
    .execute();

  // One private feed address per reader, stored hashed like session tokens.
  await db.schema
    .createTable('feed_tokens')
    .addColumn('user_id', 'integer', (c) =>
      c.primaryKey().references('users.id').onDelete('cascade'),
    )
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}
