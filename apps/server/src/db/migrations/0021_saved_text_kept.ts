import { sql, type Kysely } from 'kysely';
import type { Engine } from './columns.ts';

/**
 * A save by hand of a published chapter keeps the text it saves forever, even when that text is
 * already the chapter's last version (docs/decisions/0033). The editor autosaves, then the author
 * presses Save: the Save changes nothing, so 0017's trigger keeps no version, and the text readers
 * were shown lived only as an autosave, which retention thins. Now such a save marks the chapter's
 * newest version (the text it saved) as published instead of storing it a second time.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const markNewest = `update chapter_revisions set published = 1
    where id = (select max(id) from chapter_revisions where chapter_id = new.id) and published = 0`;
  if (engine === 'postgres') {
    await sql
      .raw(
        `create function inkwell_chapter_keep_saved_text() returns trigger language plpgsql as $$
        begin ${markNewest}; return null; end $$`,
      )
      .execute(db);
    await sql`create trigger chapters_keep_saved_text
      after update of title, content, save_kind on chapters
      for each row when (new.save_kind = 'save' and new.is_published = 1
        and old.content is not distinct from new.content and old.title is not distinct from new.title)
      execute function inkwell_chapter_keep_saved_text()`.execute(db);
  } else {
    await sql
      .raw(
        `create trigger chapters_keep_saved_text
        after update of title, content, save_kind on chapters
        when new.save_kind = 'save' and new.is_published = 1
          and old.content is new.content and old.title is new.title
        begin ${markNewest}; end`,
      )
      .execute(db);
  }
}
