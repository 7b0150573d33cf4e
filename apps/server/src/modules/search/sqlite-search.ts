import { publicChapter, published } from '../../access/visibility.ts';
import { sql } from 'kysely';
import {
  longText,
  decodeLongText,
  writeTransaction,
  type Db,
  type LongText,
} from '../../db/kysely.ts';
import { textOfSanitized } from '../../html/sanitize.ts';
import {
  windowSearch,
  type MatchingChapter,
  type RankWithWindow,
  type WindowMatch,
} from './chapter-window.ts';
import { phraseGrams } from './phrase-grams.ts';
import { sqliteStem } from './stemmers.ts';
import type { IndexRound, SearchEngine } from './search-engine.ts';
import { chapterMatch, documentMatch, parseSearchQuery } from './search-query.ts';
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
 * Search on SQLite: FTS5 tables for book documents (book_fts, kept by triggers on book_search)
 * and for published chapters' text and word pairs (chapter_fts, migration 0006, written by the
 * search indexer). FTS5 keeps each term's entries in rowid order, so the newest matches of any
 * query are read first and the windows stop early (decision 0009); a phrase is an FTS5 phrase
 * over the pairs, as cheap as its rarest pair (decision 0015).
 */
export function sqliteSearch(db: Db): SearchEngine {
  const ranked: RankWithWindow = async (q, page, order) => {
    const query = parseSearchQuery(q);
    const documents = documentMatch(query);
    const chapters = chapterMatch(query);
    if (!documents || !chapters)
      return { bookIds: await rankedBookIds(db, tagHits(q), page, order), window: [] };
    const window = await chapterWindow(db, chapters);
    const hits = sql`${sqliteHits(documents, window)} union all ${tagHits(q)}`;
    const bookIds = await rankedBookIds(db, hits, page, order);
    return { bookIds, window };
  };
  return {
    stem: sqliteStem,
    ...windowSearch(ranked, (books, chapters) => firstMatchingChapters(db, books, chapters)),
    // One writer at a time, and better-sqlite3 writes on the event loop: one chapter per
    // transaction keeps each pause to a chapter's few milliseconds of FTS5 work, so requests
    // (autosaves above all) get in between (decision 0021).
    indexBatch: 1,
    indexPending: (batch, resting) => indexPending(db, batch, resting),
    countPending: () => countPendingChanges(db),
    async close() {},
  };
}

/**
 * The newest CHAPTER_WINDOW published chapters matching the query, with their books: one FTS5
 * scan, newest matches first, that stops at its limit. A hit whose chapter was unpublished since
 * it was indexed is dropped by the join. Read once per search: it ranks the books and says why
 * each matched.
 */
async function chapterWindow(db: Db, chapters: string): Promise<WindowMatch[]> {
  const { rows } = await sql<WindowMatch>`
    select c.id as chapter_id, c.book_id
      from (select rowid as id from chapter_fts where chapter_fts match ${chapters}
             order by rowid desc limit ${CHAPTER_WINDOW}) w
      join chapters c indexed by chapters_id_book_published_idx
        on c.id = w.id and ${published('c')}`.execute(db);
  return rows;
}

/**
 * Each book's first chapter in reading order among `chapterIds` (the window's, of a page's
 * books), with its HTML, while both are still published. The first of each book is found on the
 * chapter list's covering index (the table row keeps its small columns after the long text), and
 * only those rows are read for their HTML: CROSS JOIN, which SQLite never reorders, keeps them
 * the outer loop (without statistics it would rather scan chapters). Looking further, chapter by
 * chapter, for books matched by their document only cost a search page tens of milliseconds.
 */
async function firstMatchingChapters(
  db: Db,
  bookIds: readonly number[],
  chapterIds: number[],
): Promise<MatchingChapter[]> {
  const { rows } = await sql<MatchingChapter & { content: LongText }>`
    select c.book_id, c.id, c.title, ${longText(db, 'c.content')} as content
      from (select id, row_number() over (partition by book_id order by chapter_order, id) as n
              from chapters indexed by chapters_book_list_idx
             where book_id in (${sql.join(bookIds)})
               and id in (${sql.join(chapterIds)}) and ${published('chapters')}) first
      cross join chapters c on c.id = first.id
      cross join books b on b.id = c.book_id and ${published('b')}
     where first.n = 1`.execute(db);
  return rows.map((row) => ({ ...row, content: decodeLongText(row.content) }));
}

/**
 * bm25() is lower-is-better; negated, more is better. The document scan walks book documents
 * newest (highest rowid) first and stops at its window, so bm25 is computed for the document
 * window only; the chapter window's books come counted from the window already read.
 */
function sqliteHits(documents: string, window: readonly WindowMatch[]) {
  return sql`
      select book_id, document, 0 as chapters
        from (select rowid as book_id, -bm25(book_fts) as document
                from book_fts where book_fts match ${documents}
               order by rowid desc limit ${DOCUMENT_WINDOW})
      union all
      select value as book_id, 0 as document, count(*) as chapters
        from json_each(${JSON.stringify(window.map((w) => w.book_id))})
       group by value`;
}

/**
 * Indexes the oldest pending chapters with their current text (read from their HTML here, the
 * one place it is needed: decision 0039), or takes them out when they are no longer public.
 * SQLite runs one write transaction at a time, so a round sees and settles
 * its chapters alone. The word pairs are computed here, by the function that splits a reader's
 * phrase, so the two always agree.
 */
async function indexPending(
  db: Db,
  batch: number,
  resting: readonly number[],
): Promise<IndexRound> {
  return writeTransaction(db, async (trx) => {
    const books = await refreshPendingBookDocuments(trx, batch);
    const { rows: picked } = await oldestPendingChapters(batch, resting, false).execute(trx);
    if (picked.length === 0) return { taken: books, chapters: [] };
    const ids = picked.map((p) => p.chapter_id);
    // Published in a published book: what the index may hold (migration 0025).
    const stillPublished = await trx
      .selectFrom('chapters')
      .innerJoin('books', 'books.id', 'chapters.book_id')
      .select('chapters.id')
      .select(longText(trx, 'chapters.content').as('content'))
      .where('chapters.id', 'in', ids)
      .where(publicChapter())
      .execute();
    for (const id of ids) await sql`delete from chapter_fts where rowid = ${id}`.execute(trx);
    for (const chapter of stillPublished) {
      const text = textOfSanitized(decodeLongText(chapter.content));
      await sql`insert into chapter_fts (rowid, content_text, phrase_grams)
        values (${chapter.id}, ${text}, ${phraseGrams(text)})`.execute(trx);
    }
    await trx.deleteFrom('search_pending').where('chapter_id', 'in', ids).execute();
    return { taken: books + ids.length, chapters: ids };
  });
}
