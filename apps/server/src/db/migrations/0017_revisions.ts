import { sql, type Kysely } from 'kysely';
import { withId, type Engine } from './columns.ts';

/**
 * Issue 20, "Every version kept" (docs/decisions/0033-revisions.md): every save of a chapter's
 * title or content keeps a revision, and a deleted chapter waits 30 days in `deleted_chapters`,
 * its revisions with it, before it is purged.
 *
 * A revision names its chapter without a foreign key, so deleting the chapter leaves its
 * versions for a restore; its book's deletion takes them (and the deleted chapters) away.
 *
 * The save does not write the version itself: a trigger on `chapters` copies the row, in the
 * save's own statement, whenever a write names `save_kind` (the kind of version it keeps) and
 * changes the title or content (or publishes, or restores, which are kept even unchanged). The
 * chapter's previous row is its last version, so "a save identical to the last version keeps
 * nothing" is a comparison of OLD and NEW. An autosave stays one statement, on both engines.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await withId(db.schema.createTable('chapter_revisions'), engine)
    .addColumn('chapter_id', 'integer', (c) => c.notNull())
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    // autosave | save | publish | restore | import
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('words', 'integer', (c) => c.notNull())
    // 1 when readers were shown this version and it is kept forever: a save, publication,
    // restore or import of a published chapter. Not its autosaves, which thin like a draft's, so
    // a published chapter autosaved all day keeps bounded storage (docs/decisions/0033).
    .addColumn('published', 'integer', (c) => c.notNull().defaultTo(0))
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
  // The scheduled job's look for versions not packed yet: a few rows, never a scan of them all.
  await db.schema
    .createIndex('chapter_revisions_unpacked_idx')
    .on('chapter_revisions')
    .column('chapter_id')
    .where(sql.ref('content'), 'is not', null)
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
    // The author's notes (0016) come back with the chapter; a schedule does not (0033).
    .addColumn('note_before', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('note_after', 'text', (c) => c.notNull().defaultTo(''))
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

  // The kind of version the chapter's last write of title or content kept; writes set it.
  await db.schema.alterTable('chapters').addColumn('save_kind', 'text').execute();
  // Every existing chapter starts with its current state as a version, so the first save after
  // this migration does not take the text it replaces out of History.
  await sql`insert into chapter_revisions
      (chapter_id, book_id, created_at, kind, words, published, title, content)
    select id, book_id, updated_at, 'save', word_count, is_published, title, content
    from chapters`.execute(db);
  const keepNew = `insert into chapter_revisions
      (chapter_id, book_id, created_at, kind, words, published, title, content)
    values (new.id, new.book_id, new.updated_at, new.save_kind, new.word_count,
      case when new.is_published = 1 and new.save_kind <> 'autosave' then 1 else 0 end,
      new.title, new.content)`;
  if (engine === 'postgres') {
    await sql
      .raw(
        `create function inkwell_chapter_keep_version() returns trigger language plpgsql as $$
        begin ${keepNew}; return null; end $$`,
      )
      .execute(db);
    await sql`create trigger chapters_keep_version_insert after insert on chapters
      for each row when (new.save_kind is not null)
      execute function inkwell_chapter_keep_version()`.execute(db);
    await sql`create trigger chapters_keep_version_update
      after update of title, content, save_kind on chapters
      for each row when (new.save_kind is not null and (old.content is distinct from new.content
        or old.title is distinct from new.title or new.save_kind in ('publish', 'restore')))
      execute function inkwell_chapter_keep_version()`.execute(db);
  } else {
    await sql
      .raw(
        `create trigger chapters_keep_version_insert after insert on chapters
        when new.save_kind is not null begin ${keepNew}; end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger chapters_keep_version_update
        after update of title, content, save_kind on chapters
        when new.save_kind is not null and (old.content is not new.content
          or old.title is not new.title or new.save_kind in ('publish', 'restore'))
        begin ${keepNew}; end`,
      )
      .execute(db);
  }
}
