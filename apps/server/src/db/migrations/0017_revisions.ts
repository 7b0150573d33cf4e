import type { Kysely } from 'kysely';
import { withId, type Engine } from './columns.ts';

/**
 * Issue 20, "Every version kept" (docs/decisions/0033-revisions.md): every save of a chapter's
 * title or content keeps a revision, and a deleted chapter waits 30 days in `deleted_chapters`,
 * its revisions with it, before it is purged.
 *
 * A revision names its chapter without a foreign key, so deleting the chapter leaves its
 * versions for a restore; its book's deletion takes them (and the deleted chapters) away.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await withId(db.schema.createTable('chapter_revisions'), engine)
    .addColumn('chapter_id', 'integer', (c) => c.notNull())
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    // autosave | save | publish | restore | import
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('words', 'integer', (c) => c.notNull())
    // 1 when readers could read this version (the chapter was published): kept forever.
    .addColumn('published', 'integer', (c) => c.notNull().defaultTo(0))
    // A digest of title and content: a save identical to the chapter's last version is skipped.
    .addColumn('digest', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    // The content as saved, until the scheduled job packs it into `packed` (and clears this).
    .addColumn('content', 'text')
    // Deflated: the whole content when base_id is null, else a delta against revision base_id.
    .addColumn('packed', engine === 'postgres' ? 'bytea' : 'blob')
    .addColumn('base_id', 'integer')
    .execute();
  // A chapter's versions in order (the list, the last one's digest, decoding a delta chain).
  await db.schema
    .createIndex('chapter_revisions_chapter_idx')
    .on('chapter_revisions')
    .columns(['chapter_id', 'id'])
    .execute();
  // The book's deletion finds them (PostgreSQL's foreign key check).
  await db.schema
    .createIndex('chapter_revisions_book_idx')
    .on('chapter_revisions')
    .column('book_id')
    .execute();

  // A deleted chapter's row, as it was, under its own id (a restore puts it back under it).
  await db.schema
    .createTable('deleted_chapters')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('content_text', 'text', (c) => c.notNull())
    .addColumn('word_count', 'integer', (c) => c.notNull())
    .addColumn('chapter_order', 'integer', (c) => c.notNull())
    .addColumn('is_published', 'integer', (c) => c.notNull())
    .addColumn('first_published_at', 'text')
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('comments_locked', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('deleted_chapters_book_idx')
    .on('deleted_chapters')
    .columns(['book_id', 'deleted_at'])
    .execute();
  await db.schema
    .createIndex('deleted_chapters_purge_idx')
    .on('deleted_chapters')
    .column('deleted_at')
    .execute();
}
