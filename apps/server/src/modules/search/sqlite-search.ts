import { published } from '../../access/visibility.ts';
import { sql } from 'kysely';
import { writeTransaction, type Db } from '../../db/kysely.ts';
import { textOfSanitized } from '../../html/sanitize.ts';
import { phraseGrams } from './phrase-grams.ts';
import type { SearchEngine } from './search-engine.ts';
import { chapterMatch, documentMatch, parseSearchQuery, type SearchTerms } from './search-query.ts';
import {
  CHAPTER_WINDOW,
  countPendingChanges,
  DOCUMENT_WINDOW,
  oldestPendingChapters,
  rankedBookIds,
  refreshPendingBookDocuments,
} from './search.repository.ts';

/**
 * Search on SQLite: FTS5 tables for book documents (book_fts, kept by triggers on book_search)
 * and for published chapters' text and word pairs (chapter_fts, migration 0006, written by the
 * search indexer). FTS5 keeps each term's entries in rowid order, so the newest matches of any
 * query are read first and the windows stop early (decision 0009); a phrase is an FTS5 phrase
 * over the pairs, as cheap as its rarest pair (decision 0015).
 */
export function sqliteSearch(db: Db): SearchEngine {
  const searchBookIds: SearchEngine['searchBookIds'] = async (q, page, order) => {
    const hits = sqliteHits(parseSearchQuery(q));
    if (!hits) return [];
    return rankedBookIds(db, hits, page, order);
  };
  return {
    searchBookIds,
    async searchWithMatches(q, page, order) {
      const bookIds = await searchBookIds(q, page, order);
      return { bookIds, matchingChapters: await matchingChapters(db, q, bookIds) };
    },
    // One writer at a time, and better-sqlite3 writes on the event loop: one chapter per
    // transaction keeps each pause to a chapter's few milliseconds of FTS5 work, so requests
    // (autosaves above all) get in between (decision 0021).
    indexBatch: 1,
    indexPending: (batch) => indexPending(db, batch),
    countPending: () => countPendingChanges(db),
    async close() {},
  };
}

/**
 * For each of `bookIds`, its first chapter in reading order among the search's chapter window.
 * The ranking statement counts the window by book inside SQLite, so the window is read once more
 * here: one FTS5 scan, newest matches first, that stops at its limit.
 */
async function matchingChapters(db: Db, q: string, bookIds: readonly number[]) {
  const chapters = chapterMatch(parseSearchQuery(q));
  const found = new Map<number, number>();
  if (!chapters || bookIds.length === 0) return found;
  // The search's own chapter window (one FTS5 scan, newest matches first): each book's
  // earliest chapter there, in reading order. Looking further, chapter by chapter, for books
  // matched by their document only cost a search page tens of milliseconds (decision 0031).
  const { rows: window } = await sql<{ id: number }>`
        select c.id
          from (select rowid as id from chapter_fts where chapter_fts match ${chapters}
                 order by rowid desc limit ${CHAPTER_WINDOW}) w
          join chapters c indexed by chapters_id_book_published_idx
            on c.id = w.id and ${published('c')}
         where c.book_id in (${sql.join(bookIds)})`.execute(db);
  if (window.length === 0) return found;
  // Their reading order from the chapter list's covering index (the table row keeps its small
  // columns after the long texts).
  const { rows } = await sql<{ book_id: number; id: number }>`
        select c.book_id, c.id from chapters c indexed by chapters_book_list_idx
         where c.book_id in (${sql.join(bookIds)})
           and c.id in (${sql.join(window.map((w) => w.id))})
         order by c.book_id, c.chapter_order desc, c.id desc`.execute(db);
  for (const row of rows) found.set(row.book_id, row.id);
  return found;
}

/**
 * bm25() is lower-is-better; negated, more is better. Both FTS5 scans walk their documents newest
 * (highest rowid) first and stop at their window, so bm25 is computed for the document window
 * only, and chapter matches are found without scoring. A hit whose chapter was unpublished since
 * it was indexed is dropped by the join. Null when the query cannot match.
 */
function sqliteHits(query: SearchTerms) {
  const documents = documentMatch(query);
  const chapters = chapterMatch(query);
  if (!documents || !chapters) return null;
  return sql`
      select book_id, document, 0 as chapters
        from (select rowid as book_id, -bm25(book_fts) as document
                from book_fts where book_fts match ${documents}
               order by rowid desc limit ${DOCUMENT_WINDOW})
      union all
      select c.book_id, 0 as document, count(*) as chapters
        from (select rowid as id from chapter_fts where chapter_fts match ${chapters}
               order by rowid desc limit ${CHAPTER_WINDOW}) w
        join chapters c indexed by chapters_id_book_published_idx
          on c.id = w.id and ${published('c')}
       group by c.book_id`;
}

/**
 * Indexes the oldest pending chapters with their current text (read from their HTML here, the
 * one place it is needed: decision 0039), or takes them out when they are no longer published.
 * SQLite runs one write transaction at a time, so a round sees and settles
 * its chapters alone. The word pairs are computed here, by the function that splits a reader's
 * phrase, so the two always agree.
 */
async function indexPending(db: Db, batch: number): Promise<number> {
  return writeTransaction(db, async (trx) => {
    const books = await refreshPendingBookDocuments(trx, batch);
    const { rows: picked } = await oldestPendingChapters(batch).execute(trx);
    if (picked.length === 0) return books;
    const ids = picked.map((p) => p.chapter_id);
    const stillPublished = await trx
      .selectFrom('chapters')
      .select(['id', 'content'])
      .where('id', 'in', ids)
      .where(published('chapters'))
      .execute();
    for (const id of ids) await sql`delete from chapter_fts where rowid = ${id}`.execute(trx);
    for (const chapter of stillPublished) {
      const text = textOfSanitized(chapter.content);
      await sql`insert into chapter_fts (rowid, content_text, phrase_grams)
        values (${chapter.id}, ${text}, ${phraseGrams(text)})`.execute(trx);
    }
    await trx.deleteFrom('search_pending').where('chapter_id', 'in', ids).execute();
    return books + ids.length;
  });
}
