import { sql, type Kysely } from 'kysely';

type Engine = 'sqlite' | 'postgres';

/**
 * Chapter text is indexed after the write, not inside it (docs/decisions/0021-search-index-after-the-write.md).
 * A save of a published chapter paid for tokenizing 2,600 words and for keeping three GIN indexes
 * (PostgreSQL) or the FTS5 index (SQLite) up to date before it could answer; an autosave does that
 * every few seconds for text nobody searches for yet. Now a change of a published chapter's text or
 * publication only appends its id to `search_pending`, and the search indexer
 * (modules/search/search-indexer.ts) indexes the latest text of each pending chapter a moment
 * later, once however many saves came in between.
 *
 * Taking a chapter out of the index (unpublished, deleted) stays immediate and cheap: the trigger
 * removes its entry at once, and also queues it, so that an indexer that read the chapter just
 * before it changed removes what it wrote at its next round.
 *
 * PostgreSQL: the chapter's tsvector and the search-key indexes of migrations 0007 and 0008 move
 * from `chapters` to `chapter_search`, which only the indexer writes. The key functions are marked
 * as costly as they are (milliseconds a chapter): priced as a cheap expression, a plan that computes
 * them row by row (a sequential scan of chapters) looked cheaper than the index on an analyzed
 * small table and took seconds.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine === 'postgres') await postgres(db);
  else await sqlite(db);
}

async function postgres(db: Kysely<unknown>): Promise<void> {
  await sql`create table search_pending (
    id bigserial primary key,
    chapter_id integer not null
  )`.execute(db);
  await sql`create index search_pending_chapter_idx on search_pending (chapter_id)`.execute(db);

  await sql`create table if not exists chapter_search (
    chapter_id integer primary key,
    book_id integer not null,
    content_tsv tsvector not null
  )`.execute(db);
  await sql`insert into chapter_search (chapter_id, book_id, content_tsv)
    select id, book_id, content_tsv from chapters where content_tsv is not null
    on conflict (chapter_id) do nothing`.execute(db);

  // Evaluating a key function costs a few milliseconds (tokens, pairs and triples of a chapter,
  // each hashed); the planner must weigh that against reading the index.
  for (const fn of [
    'inkwell_phrase_gram_texts(tsvector)',
    'inkwell_phrase_triple_texts(tsvector)',
    'inkwell_search_keys(tsvector, integer)',
    'inkwell_wide_search_keys(tsvector, integer)',
  ])
    await sql.raw(`alter function ${fn} cost 100000`).execute(db);

  await sql`create index if not exists chapter_search_tsv_idx on chapter_search
    using gin (content_tsv)`.execute(db);
  await sql`create index if not exists chapter_search_keys_idx on chapter_search
    using gin (inkwell_search_keys(content_tsv, chapter_id))`.execute(db);
  await sql`create index if not exists chapter_search_wide_keys_idx on chapter_search
    using gin (inkwell_wide_search_keys(content_tsv, chapter_id))`.execute(db);
  // ANALYZE would compute both key expressions for every sampled chapter (minutes on a large
  // library) for statistics no plan uses: the search statements reach these indexes by shape.
  await sql`alter index chapter_search_keys_idx alter column 1 set statistics 0`.execute(db);
  await sql`alter index chapter_search_wide_keys_idx alter column 1 set statistics 0`.execute(db);

  // Drops the old GIN indexes on chapters with it.
  await sql`alter table chapters drop column content_tsv`.execute(db);

  await sql`create function inkwell_chapter_search_changed() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        delete from chapter_search where chapter_id = old.id;
        insert into search_pending (chapter_id) values (old.id);
      else
        if new.is_published = 0 then
          delete from chapter_search where chapter_id = new.id;
        end if;
        insert into search_pending (chapter_id) values (new.id);
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger chapters_search_insert after insert on chapters
    for each row when (new.is_published = 1)
    execute function inkwell_chapter_search_changed()`.execute(db);
  await sql`create trigger chapters_search_update after update of content_text, is_published on chapters
    for each row when ((old.is_published = 1 or new.is_published = 1)
      and (old.is_published is distinct from new.is_published
           or old.content_text is distinct from new.content_text))
    execute function inkwell_chapter_search_changed()`.execute(db);
  await sql`create trigger chapters_search_delete after delete on chapters
    for each row when (old.is_published = 1)
    execute function inkwell_chapter_search_changed()`.execute(db);
}

/**
 * SQLite: the chapter index (FTS5, migration 0006) stays as it is; its triggers, which indexed
 * the text inside the write through a function the application registers, give way to the queue.
 * Search hits now also check that their chapter is still published, from an index that holds it.
 */
async function sqlite(db: Kysely<unknown>): Promise<void> {
  await sql`create table search_pending (
    id integer primary key,
    chapter_id integer not null
  )`.execute(db);
  await sql`create index search_pending_chapter_idx on search_pending (chapter_id)`.execute(db);

  // A database migrated through 0006 before its triggers were taken out still has them.
  for (const name of ['chapters_ai', 'chapters_ad', 'chapters_au'])
    await sql.raw(`drop trigger if exists ${name}`).execute(db);
  // Migration 0006 leaves the chapter index empty: its published chapters are queued, and the
  // indexer fills it once the server runs. (A database whose index 0006 filled keeps it.)
  await sql`insert into search_pending (chapter_id)
    select id from chapters where is_published = 1
       and not exists (select 1 from chapter_fts) order by id`.execute(db);
  const triggers = [
    `create trigger chapters_search_insert after insert on chapters when new.is_published = 1 begin
       insert into search_pending (chapter_id) values (new.id); end`,
    `create trigger chapters_search_update after update of content_text, is_published on chapters
       when (old.is_published = 1 or new.is_published = 1)
        and (old.is_published is not new.is_published or old.content_text is not new.content_text) begin
       delete from chapter_fts where rowid = new.id and new.is_published = 0;
       insert into search_pending (chapter_id) values (new.id); end`,
    `create trigger chapters_search_delete after delete on chapters when old.is_published = 1 begin
       delete from chapter_fts where rowid = old.id;
       insert into search_pending (chapter_id) values (old.id); end`,
  ];
  for (const trigger of triggers) await sql.raw(trigger).execute(db);

  await sql`create index chapters_id_book_published_idx on chapters (id, book_id, is_published)`.execute(
    db,
  );
  await sql`drop index chapters_id_book_idx`.execute(db);
}
