import { sql, type Kysely } from 'kysely';

type Engine = 'sqlite' | 'postgres';

/**
 * What the benchmarks found slow at scale (bench/README.md):
 * - Only published chapter text is searchable, so only published chapters are indexed: a draft's
 *   autosave no longer re-tokenizes 2,600 words (docs/decisions/0006-index-published-chapters-only.md).
 * - SQLite stores a chapter row with its small columns after the two long texts, on overflow pages;
 *   a covering index answers chapter lists and counts without reading those pages
 *   (docs/decisions/0012-covering-index-for-chapter-lists.md).
 * - Popular books ranked by scanning all of read history; books now carry their distinct-reader
 *   count, kept by triggers (docs/decisions/0008-reader-count-for-popular-books.md).
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine === 'postgres') await postgres(db);
  else await sqlite(db);
}

async function sqlite(db: Kysely<unknown>): Promise<void> {
  // Search index: published chapters only. One update trigger does both halves in order: the
  // old text leaves the index before the new one enters it (FTS5 'delete' drops a whole term entry).
  for (const name of ['chapters_ai', 'chapters_ad', 'chapters_au'])
    await sql.raw(`drop trigger ${name}`).execute(db);
  const triggers = [
    `create trigger chapters_ai after insert on chapters when new.is_published = 1 begin
       insert into chapter_fts(rowid, content_text) values (new.id, new.content_text); end`,
    `create trigger chapters_ad after delete on chapters when old.is_published = 1 begin
       insert into chapter_fts(chapter_fts, rowid, content_text) values ('delete', old.id, old.content_text); end`,
    `create trigger chapters_au after update of content_text, is_published on chapters
       when old.is_published = 1 or new.is_published = 1 begin
       insert into chapter_fts(chapter_fts, rowid, content_text)
         select 'delete', old.id, old.content_text where old.is_published = 1;
       insert into chapter_fts(rowid, content_text)
         select new.id, new.content_text where new.is_published = 1; end`,
  ];
  for (const trigger of triggers) await sql.raw(trigger).execute(db);
  // Drafts were indexed with their current text; take exactly that out again.
  await sql`insert into chapter_fts(chapter_fts, rowid, content_text)
    select 'delete', id, content_text from chapters where is_published = 0`.execute(db);

  await sql`create index chapters_book_list_idx on chapters
    (book_id, chapter_order, id, is_published, title, word_count, version, created_at, updated_at)`.execute(
    db,
  );
  await sql`drop index chapters_book_order_idx`.execute(db);

  await addReaderCount(db);
  const readerTriggers = [
    // Counted when a reader's first chapter of the book enters the history...
    `create trigger read_history_reader_ai after insert on read_history
       when not exists (select 1 from read_history
                         where book_id = new.book_id and user_id = new.user_id and id <> new.id) begin
       update books set reader_count = reader_count + 1 where id = new.book_id; end`,
    // ...and uncounted when their last one leaves it (also when a user's history cascades away).
    `create trigger read_history_reader_ad after delete on read_history
       when not exists (select 1 from read_history where book_id = old.book_id and user_id = old.user_id) begin
       update books set reader_count = reader_count - 1 where id = old.book_id; end`,
  ];
  for (const trigger of readerTriggers) await sql.raw(trigger).execute(db);
}

async function postgres(db: Kysely<unknown>): Promise<void> {
  // A generated column cannot change its expression before PostgreSQL 17: drop it and add it back.
  await sql`drop index chapters_tsv_idx`.execute(db);
  await sql`alter table chapters drop column content_tsv`.execute(db);
  await sql`alter table chapters add column content_tsv tsvector generated always as
    (case when is_published = 1 then to_tsvector('english', content_text) end) stored`.execute(db);
  await sql`create index chapters_tsv_idx on chapters using gin (content_tsv)`.execute(db);
  // No wide covering index here: PostgreSQL keeps long texts out of line (TOAST), so the table
  // rows chapter lists read are small already. Counting a book's published chapters, done for
  // every book of every list, can be answered from this index alone.
  await sql`create index chapters_book_published_idx on chapters (book_id, is_published)`.execute(
    db,
  );
  // A page of the book list skips `offset` entries of this index without visiting the table
  // (SQLite's books_published_idx carries the rowid, which is the id, already).
  await sql`create index books_published_list_idx on books (is_published, published_at, id)`.execute(
    db,
  );
  await sql`drop index books_published_idx`.execute(db);

  await addReaderCount(db);
  // Two requests recording two chapters of one book for one reader must not both count them:
  // the lock on (reader, book) makes the second wait, and its check, a new statement, then
  // sees the first one's row.
  await sql`create function inkwell_count_book_reader() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        perform pg_advisory_xact_lock(new.user_id, new.book_id);
        if not exists (select 1 from read_history
                        where book_id = new.book_id and user_id = new.user_id and id <> new.id) then
          update books set reader_count = reader_count + 1 where id = new.book_id;
        end if;
      else
        perform pg_advisory_xact_lock(old.user_id, old.book_id);
        if not exists (select 1 from read_history where book_id = old.book_id and user_id = old.user_id) then
          update books set reader_count = reader_count - 1 where id = old.book_id;
        end if;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger read_history_reader_count after insert or delete on read_history
    for each row execute function inkwell_count_book_reader()`.execute(db);
}

/** books.reader_count: distinct readers in read history, as "popular books" ranks them. */
async function addReaderCount(db: Kysely<unknown>): Promise<void> {
  await sql`alter table books add column reader_count integer not null default 0`.execute(db);
  await sql`update books set reader_count =
    (select count(distinct user_id) from read_history where read_history.book_id = books.id)`.execute(
    db,
  );
  await sql`create index books_popular_idx on books (is_published, reader_count, id)`.execute(db);
}
