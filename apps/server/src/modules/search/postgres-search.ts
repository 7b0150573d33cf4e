import { publicChapter, published } from '../../access/visibility.ts';
import { sql, type RawBuilder } from 'kysely';
import type { Db, DbHandle } from '../../db/kysely.ts';
import { textOfSanitized } from '../../html/sanitize.ts';
import {
  windowSearch,
  type MatchingChapter,
  type RankWithWindow,
  type WindowMatch,
} from './chapter-window.ts';
import { newestMatchingChapters, phraseTsQuery } from './postgres-bucket-window.ts';
import { postgresStem } from './stemmers.ts';
import type { IndexRound, SearchEngine } from './search-engine.ts';
import { parseSearchQuery, type SearchTerms } from './search-query.ts';
import {
  CHAPTER_WINDOW,
  countPendingChanges,
  DOCUMENT_WINDOW,
  oldestPendingChapters,
  rankedBookIds,
  refreshPendingBookDocuments,
  tagHits,
} from './search.repository.ts';

/**
 * Search on PostgreSQL: a GIN-indexed tsvector per book document (book_search) and per published
 * chapter (chapter_search, written by the search indexer, migration 0009). `queryDb` is search's
 * own pool, with its statement timeout, so slow searches never hold the connections of other
 * reads; `db` is the application's, for indexing. With `bucketKeys` the chapter window comes from
 * the id-bucket keys (postgres-bucket-window.ts), else from the plain tsvector index.
 */
export function postgresSearch(options: {
  db: Db;
  queryDb: Db;
  bucketKeys: boolean;
  close?: () => Promise<void>;
}): SearchEngine {
  const { db, queryDb } = options;
  const chapterWindow = options.bucketKeys ? newestMatchingChapters : plainChapterWindow;
  const ranked: RankWithWindow = async (q, page, order) => {
    const query = parseSearchQuery(q);
    if (query.loose.length === 0 && query.phrases.length === 0)
      return { bookIds: await rankedBookIds(queryDb, tagHits(q), page, order), window: [] };
    const window = await chapterWindow(queryDb, query, CHAPTER_WINDOW);
    const chapterBooks = window.map((w) => w.book_id);
    const all = sql`${hits(query, chapterBooks)} union all ${tagHits(q)}`;
    return { bookIds: await rankedBookIds(queryDb, all, page, order), window };
  };
  return {
    stem: postgresStem,
    ...windowSearch(ranked, (_books, chapters) => firstMatchingChapters(queryDb, chapters)),
    // Nothing a request waits for is locked by a round.
    indexBatch: 25,
    indexPending: (batch, resting) => indexPending(db, batch, resting),
    countPending: () => countPendingChanges(db),
    close: options.close ?? (async () => {}),
  };
}

/**
 * Each book's first chapter in reading order among `chapterIds` (the window's, of a page's
 * books), with its HTML, while both are still published. Each chapter is looked up by its id
 * (a LATERAL subquery, which OFFSET 0 keeps whole): hundreds of ids out of a small table would
 * otherwise plan a scan of every chapter. DISTINCT ON keeps the first of each book after the
 * sort, which carries each row's HTML as its TOAST pointer only: the HTML read is that of the
 * chapters answered.
 */
async function firstMatchingChapters(
  db: DbHandle,
  chapterIds: number[],
): Promise<MatchingChapter[]> {
  const { rows } = await sql<MatchingChapter>`
    select distinct on (c.book_id) c.book_id, c.id, c.title, c.content
      from unnest(${chapterIds}::int[]) w(id)
     cross join lateral (select c.book_id, c.id, c.chapter_order, c.title, c.content
                           from chapters c where c.id = w.id and ${published('c')}
                         offset 0) c
      join books b on b.id = c.book_id and ${published('b')}
     order by c.book_id, c.chapter_order, c.id`.execute(db);
  return rows;
}

/** Everything the query asks for, as one tsquery: its loose words and each phrase. */
function wholeQuery(query: SearchTerms) {
  return sql.join(
    [
      ...(query.loose.length > 0
        ? [sql`plainto_tsquery('english', ${query.loose.join(' ')})`]
        : []),
      ...query.phrases.map((p) => phraseTsQuery(p.terms)),
    ],
    sql` && `,
  );
}

/**
 * Book documents matching the whole query and the books of the chapter window. The document
 * window is taken from the GIN index's matches ("book_id + 0" hides the primary key's order):
 * walking book documents newest first unpacks each one's tsvector, and for a word in a few per
 * cent of them reads thousands where the matches are hundreds (decision 0018).
 */
function hits(query: SearchTerms, chapterBooks: number[]) {
  const whole = wholeQuery(query);
  return sql`
      select d.book_id, ts_rank(d.document_tsv, ${whole}) as document, 0 as chapters
        from (select bs.book_id, bs.document_tsv from book_search bs
               where bs.document_tsv @@ (${whole})
               order by bs.book_id + 0 desc limit ${DOCUMENT_WINDOW}) d
      union all
      select w.book_id, 0 as document, count(*) as chapters
        from unnest(${chapterBooks}::int[]) w(book_id)
       group by w.book_id`;
}

/**
 * The newest `window` chapters matching the whole query, with their books, from the tsvector index
 * alone: the simple window, without the bucket keys. The planner chooses between the index's
 * matches and walking chapters newest first; either reads, for a common word, a number of chapters
 * that grows with the library (see postgres-bucket-window.ts).
 */
async function plainChapterWindow(
  db: DbHandle,
  query: SearchTerms,
  window: number,
): Promise<WindowMatch[]> {
  const { rows } = await sql<WindowMatch>`
    select c.chapter_id, c.book_id from chapter_search c
     where c.content_tsv @@ (${wholeQuery(query)})
     order by c.chapter_id desc limit ${window}`.execute(db);
  return rows;
}

/** Any fixed number: the key of the advisory lock that gives one indexer at a time the turn. */
const INDEXER_LOCK = 7_246_001;

/**
 * Rebuilds the pending book documents, then indexes the oldest pending chapters with their
 * current text, or takes them out when they are no longer public (unpublished, deleted, or in a
 * book unpublished: migration 0025); null when another
 * process's indexer holds the turn. The first statement claims the queue rows and reads the
 * chapters in one snapshot: a change committed after it began keeps its queue row for the next
 * round. The queue rows it takes are deleted by chapter (a chapter saved many times is indexed
 * once), and the lock keeps two processes from writing one chapter's entry from two snapshots.
 * The text is read from the HTML here (decision 0039), and the second statement writes the
 * entries of the chapters still published then. Saves append to the queue and never touch
 * chapter_search, so they never wait for a round.
 *
 * An unpublish or delete whose trigger runs while the second statement writes is missed both
 * ways: the statement saw the chapter published, and the trigger could not see the entry being
 * written. So once the round has committed, a last statement (a new snapshot) takes back the
 * entries it wrote for chapters no longer published, rather than a lock that saves would wait on.
 * A change that commits only after that statement began (a delete still renumbering the book's
 * chapters) queued the chapter, which then skips its rest: its entry goes in the next round.
 */
async function indexPending(
  db: Db,
  batch: number,
  resting: readonly number[],
): Promise<IndexRound | null> {
  let written: number[] = [];
  const round = await db.transaction().execute(async (trx) => {
    const { rows: locks } = await sql<{ locked: boolean }>`
      select pg_try_advisory_xact_lock(${INDEXER_LOCK}) as locked`.execute(trx);
    if (!locks[0]?.locked) return null;
    const books = await refreshPendingBookDocuments(trx, batch);
    const { rows } = await sql<{ chapter_id: number; content: string | null }>`
      with picked as (${oldestPendingChapters(batch, resting, true)}), claimed as (
        delete from search_pending p using picked where p.chapter_id = picked.chapter_id
      ), removed as (
        delete from chapter_search s
         where s.chapter_id in (select chapter_id from picked) and not ${isPublic(sql`s.chapter_id`)}
      )
      select picked.chapter_id, c.content
        from picked left join (chapters c join books b on b.id = c.book_id and ${publicChapter('c', 'b')})
          on c.id = picked.chapter_id`.execute(trx);
    const texts = rows.filter((row) => row.content !== null);
    written = texts.map((row) => row.chapter_id);
    if (texts.length > 0)
      await sql`
        insert into chapter_search (chapter_id, book_id, content_tsv)
        select c.id, c.book_id, to_tsvector('english', t.text)
          from unnest(${texts.map((row) => row.chapter_id)}::int[],
                      ${texts.map((row) => textOfSanitized(row.content!))}::text[]) t(id, text)
          join chapters c on c.id = t.id
          join books b on b.id = c.book_id and ${publicChapter('c', 'b')}
        on conflict (chapter_id) do update
          set book_id = excluded.book_id, content_tsv = excluded.content_tsv`.execute(trx);
    return { taken: books + rows.length, chapters: rows.map((row) => row.chapter_id) };
  });
  if (written.length > 0)
    await sql`
      delete from chapter_search s
       where s.chapter_id = any(${written}::int[]) and not ${isPublic(sql`s.chapter_id`)}`.execute(
      db,
    );
  return round;
}

/** The chapter `id` is published in a published book: what the index may hold (migration 0025). */
const isPublic = (id: RawBuilder<unknown>) =>
  sql`exists (select 1 from chapters c join books b on b.id = c.book_id
               where c.id = ${id} and ${publicChapter('c', 'b')})`;
