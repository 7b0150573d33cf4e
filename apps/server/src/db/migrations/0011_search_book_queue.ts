import { sql, type Kysely } from 'kysely';

type Engine = 'sqlite' | 'postgres';

/**
 * Book search documents (title, summary, author names, genre names) join chapter text on one
 * indexing path (docs/decisions/0024-one-indexing-path.md): triggers queue the book in
 * `search_pending_books` whenever something its document is made of changes, and the search
 * indexer rebuilds the documents a moment later, as it indexes chapter text (migration 0009).
 * Before, four services in three modules had to remember to rebuild the document inside their
 * writes. Genre names are a fixed list and never change, so only a book's genres are watched.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine === 'postgres') await postgres(db);
  else await sqlite(db);
}

async function postgres(db: Kysely<unknown>): Promise<void> {
  await sql`create table search_pending_books (
    id bigserial primary key,
    book_id integer not null
  )`.execute(db);
  await sql`create function inkwell_book_document_changed() returns trigger language plpgsql as $$
    begin
      if tg_table_name = 'users' then
        insert into search_pending_books (book_id) select id from books where author_id = new.id;
      elsif tg_op = 'DELETE' then
        insert into search_pending_books (book_id) values (old.book_id);
      elsif tg_table_name = 'books' then
        insert into search_pending_books (book_id) values (new.id);
      else
        insert into search_pending_books (book_id) values (new.book_id);
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger books_document_insert after insert on books
    for each row execute function inkwell_book_document_changed()`.execute(db);
  await sql`create trigger books_document_update after update of title, summary on books
    for each row when (old.title is distinct from new.title or old.summary is distinct from new.summary)
    execute function inkwell_book_document_changed()`.execute(db);
  await sql`create trigger users_document_update after update of username, first_name, last_name on users
    for each row when (old.username is distinct from new.username
      or old.first_name is distinct from new.first_name or old.last_name is distinct from new.last_name)
    execute function inkwell_book_document_changed()`.execute(db);
  await sql`create trigger book_genres_document after insert or delete on book_genres
    for each row execute function inkwell_book_document_changed()`.execute(db);
}

async function sqlite(db: Kysely<unknown>): Promise<void> {
  await sql`create table search_pending_books (
    id integer primary key,
    book_id integer not null
  )`.execute(db);
  const triggers = [
    `create trigger books_document_insert after insert on books begin
       insert into search_pending_books (book_id) values (new.id); end`,
    `create trigger books_document_update after update of title, summary on books
       when old.title is not new.title or old.summary is not new.summary begin
       insert into search_pending_books (book_id) values (new.id); end`,
    `create trigger users_document_update after update of username, first_name, last_name on users
       when old.username is not new.username or old.first_name is not new.first_name
         or old.last_name is not new.last_name begin
       insert into search_pending_books (book_id) select id from books where author_id = new.id; end`,
    `create trigger book_genres_document_insert after insert on book_genres begin
       insert into search_pending_books (book_id) values (new.book_id); end`,
    `create trigger book_genres_document_delete after delete on book_genres begin
       insert into search_pending_books (book_id) values (old.book_id); end`,
  ];
  for (const trigger of triggers) await sql.raw(trigger).execute(db);
}
