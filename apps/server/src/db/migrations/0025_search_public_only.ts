import { sql, type Kysely } from 'kysely';

type Engine = 'sqlite' | 'postgres';

/**
 * The search index holds only what anyone may read: the documents of published books and the
 * text of published chapters of published books. Before, a draft book's document and the
 * published chapters of a draft book were indexed too, and dropped only after ranking: they took
 * places in the windows of newest matches (decision 0009), so a library with many drafts showed
 * fewer hits, and how many told something of the drafts' words.
 *
 * A book's publication changing now queues its document and its published chapters for the
 * search indexer, which indexes or removes them as it does for a chapter. Taking a book out stays
 * immediate, as for a chapter (migration 0009): the trigger removes its document and its chapters'
 * entries at once. The entries already written for draft books are removed here.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine === 'postgres') await postgres(db);
  else await sqlite(db);
}

async function postgres(db: Kysely<unknown>): Promise<void> {
  await sql`create function inkwell_book_publication_changed() returns trigger language plpgsql as $$
    begin
      if new.is_published = 0 then
        delete from chapter_search
         where chapter_id in (select id from chapters where book_id = new.id);
        delete from book_search where book_id = new.id;
      end if;
      insert into search_pending (chapter_id)
        select id from chapters where book_id = new.id and is_published = 1 order by id;
      insert into search_pending_books (book_id) values (new.id);
      return null;
    end $$`.execute(db);
  await sql`create trigger books_search_publication after update of is_published on books
    for each row when (old.is_published is distinct from new.is_published)
    execute function inkwell_book_publication_changed()`.execute(db);
  await sql`delete from chapter_search s using books b
    where b.id = s.book_id and b.is_published = 0`.execute(db);
  await sql`delete from book_search s using books b
    where b.id = s.book_id and b.is_published = 0`.execute(db);
}

async function sqlite(db: Kysely<unknown>): Promise<void> {
  await sql`create trigger books_search_publication after update of is_published on books
    when old.is_published is not new.is_published begin
      delete from chapter_fts where new.is_published = 0
        and rowid in (select id from chapters where book_id = new.id);
      delete from book_search where new.is_published = 0 and book_id = new.id;
      insert into search_pending (chapter_id)
        select id from chapters where book_id = new.id and is_published = 1 order by id;
      insert into search_pending_books (book_id) values (new.id);
    end`.execute(db);
  await sql`delete from chapter_fts where rowid in (select c.id from chapters c
    join books b on b.id = c.book_id where b.is_published = 0)`.execute(db);
  await sql`delete from book_search where book_id in (select id from books
    where is_published = 0)`.execute(db);
}
