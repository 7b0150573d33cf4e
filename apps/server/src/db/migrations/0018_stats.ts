import { sql, type Kysely } from 'kysely';
import { withId, type Engine } from './columns.ts';

/**
 * Issue 20, "Who keeps reading" (docs/decisions/0034-reader-stats.md).
 *
 * - `book_follow_changes`: every follow (+1) and unfollow (-1) of a book, written by triggers on
 *   `book_follows`, so the followers' daily series stays right whatever removes a follow (the
 *   unfollow route, a block, an account deleted). A follow repeated (ON CONFLICT DO NOTHING) adds
 *   no row, so it writes no change. The follows that exist already are written as changes at the
 *   time they were made.
 * - `chapter_views`: one row per chapter and visitor's browser session, the anonymous half of a
 *   chapter's readers; each process counts views in memory and writes them in batches, and the
 *   primary key keeps a session once however many processes saw it.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await withId(db.schema.createTable('book_follow_changes'), engine)
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('delta', 'integer', (c) => c.notNull())
    .addColumn('changed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('book_follow_changes_book_idx')
    .on('book_follow_changes')
    .columns(['book_id', 'changed_at'])
    .execute();
  await sql`insert into book_follow_changes (book_id, delta, changed_at)
    select book_id, 1, created_at from book_follows`.execute(db);

  await db.schema
    .createTable('chapter_views')
    .addColumn('chapter_id', 'integer', (c) =>
      c.notNull().references('chapters.id').onDelete('cascade'),
    )
    .addColumn('session', 'text', (c) => c.notNull())
    .addColumn('viewed_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('chapter_views_pk', ['chapter_id', 'session'])
    .execute();

  if (engine === 'postgres') await postgresTriggers(db);
  else await sqliteTriggers(db);
}

/*
 * An unfollow is written only while its book exists: a book being deleted takes its follows
 * with it (cascade), and its change rows too, so there is nothing left to count.
 */

async function sqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const now = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
  const triggers = [
    `create trigger book_follows_change_ai after insert on book_follows begin
       insert into book_follow_changes (book_id, delta, changed_at)
       values (new.book_id, 1, new.created_at); end`,
    `create trigger book_follows_change_ad after delete on book_follows
       when exists (select 1 from books where id = old.book_id) begin
       insert into book_follow_changes (book_id, delta, changed_at)
       values (old.book_id, -1, ${now}); end`,
  ];
  for (const trigger of triggers) await sql.raw(trigger).execute(db);
}

async function postgresTriggers(db: Kysely<unknown>): Promise<void> {
  await sql`create function inkwell_book_follow_changed() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        insert into book_follow_changes (book_id, delta, changed_at)
          values (new.book_id, 1, new.created_at);
      elsif exists (select 1 from books where id = old.book_id) then
        insert into book_follow_changes (book_id, delta, changed_at)
          values (old.book_id, -1,
            to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'));
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger book_follows_change after insert or delete on book_follows
    for each row execute function inkwell_book_follow_changed()`.execute(db);
}
