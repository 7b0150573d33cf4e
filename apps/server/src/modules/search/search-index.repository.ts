import { sql } from 'kysely';
import { isPostgres, writeTransaction, type Db } from '../../db/kysely.ts';
import { phraseGrams } from './phrase-grams.ts';

/**
 * Brings the chapter index up to date for the oldest pending chapters (migration 0009's queue):
 * each is indexed with its text as it is now, or removed when it is no longer published. Answers
 * how many chapters it took, 0 when nothing was pending, or null when another process's indexer
 * holds the turn (PostgreSQL).
 */
export function indexPendingChapters(db: Db, batch: number): Promise<number | null> {
  return isPostgres(db) ? indexPendingPostgres(db, batch) : indexPendingSqlite(db, batch);
}

/** How many queued changes a round looks through for its chapters (one chapter may have many). */
const LOOK_AHEAD = 20;

/** Any fixed number: the key of the advisory lock that lets one indexer at a time work. */
const INDEXER_LOCK = 7_246_001;

/**
 * One statement, so it reads the queue and the chapters in one snapshot: a change committed
 * after it began has its queue row left for the next round. The queue rows it takes are deleted
 * by chapter (a chapter saved many times is indexed once), and the lock keeps two processes from
 * writing one chapter's entry from two snapshots. Nothing a request waits for is locked: saves
 * append to the queue and never touch `chapter_search`.
 */
async function indexPendingPostgres(db: Db, batch: number): Promise<number | null> {
  return db.transaction().execute(async (trx) => {
    const { rows: locks } = await sql<{ locked: boolean }>`
      select pg_try_advisory_xact_lock(${INDEXER_LOCK}) as locked`.execute(trx);
    if (!locks[0]?.locked) return null;
    const { rows } = await sql<{ chapters: number }>`
      with picked as (
        select chapter_id from (select id, chapter_id from search_pending order by id
                                 limit ${batch * LOOK_AHEAD}) oldest
         group by chapter_id order by min(id) limit ${batch}
      ), claimed as (
        delete from search_pending p using picked where p.chapter_id = picked.chapter_id
      ), published as (
        select c.id, c.book_id, c.content_text from chapters c
         where c.id in (select chapter_id from picked) and c.is_published = 1
      ), removed as (
        delete from chapter_search s
         where s.chapter_id in (select chapter_id from picked)
           and s.chapter_id not in (select id from published)
      ), written as (
        insert into chapter_search (chapter_id, book_id, content_tsv)
        select id, book_id, to_tsvector('english', content_text) from published
        on conflict (chapter_id) do update
          set book_id = excluded.book_id, content_tsv = excluded.content_tsv
      )
      select count(*) as chapters from picked`.execute(trx);
    return rows[0]?.chapters ?? 0;
  });
}

/**
 * SQLite runs one write transaction at a time, so a round sees and settles its chapters alone.
 * The word pairs of phrase search (migration 0006) are computed here, from the same function
 * that splits a reader's phrase.
 */
async function indexPendingSqlite(db: Db, batch: number): Promise<number> {
  return writeTransaction(db, async (trx) => {
    const { rows: picked } = await sql<{ chapter_id: number }>`
      select chapter_id from (select id, chapter_id from search_pending order by id
                               limit ${batch * LOOK_AHEAD}) oldest
       group by chapter_id order by min(id) limit ${batch}`.execute(trx);
    if (picked.length === 0) return 0;
    const ids = picked.map((p) => p.chapter_id);
    const published = await trx
      .selectFrom('chapters')
      .select(['id', 'content_text'])
      .where('id', 'in', ids)
      .where('is_published', '=', 1)
      .execute();
    for (const id of ids) await sql`delete from chapter_fts where rowid = ${id}`.execute(trx);
    for (const chapter of published) {
      await sql`insert into chapter_fts (rowid, content_text, phrase_grams)
        values (${chapter.id}, ${chapter.content_text}, ${phraseGrams(chapter.content_text)})`.execute(
        trx,
      );
    }
    await trx.deleteFrom('search_pending').where('chapter_id', 'in', ids).execute();
    return ids.length;
  });
}

/** How many chapter changes wait for the index. */
export async function countPendingChapters(db: Db): Promise<number> {
  const row = await db
    .selectFrom('search_pending')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
