import { sql, type Kysely } from 'kysely';
import type { Engine } from './columns.ts';

/**
 * A chapter's plain text is no longer stored beside its HTML (docs/decisions/0039): the search
 * indexer derives it from `content` when it indexes the chapter, and nothing else read it but the
 * feeds' excerpts, which take it from the start of the HTML. Every save wrote 16 KB less.
 *
 * The search queue's trigger now follows `content` (a change of text is a change of content).
 * Dropping the column rewrites the table on SQLite (once, at this upgrade); on PostgreSQL it is
 * a change of the catalog only.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await sql`drop trigger chapters_search_update${engine === 'postgres' ? sql` on chapters` : sql``}`.execute(
    db,
  );
  if (engine === 'postgres') {
    await sql`create trigger chapters_search_update after update of content, is_published on chapters
      for each row when ((old.is_published = 1 or new.is_published = 1)
        and (old.is_published is distinct from new.is_published
             or old.content is distinct from new.content))
      execute function inkwell_chapter_search_changed()`.execute(db);
  } else {
    await sql`create trigger chapters_search_update after update of content, is_published on chapters
       when (old.is_published = 1 or new.is_published = 1)
        and (old.is_published is not new.is_published or old.content is not new.content) begin
       delete from chapter_fts where rowid = new.id and new.is_published = 0;
       insert into search_pending (chapter_id) values (new.id); end`.execute(db);
  }
  await db.schema.alterTable('chapters').dropColumn('content_text').execute();
  await db.schema.alterTable('deleted_chapters').dropColumn('content_text').execute();
}
