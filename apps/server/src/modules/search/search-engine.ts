import type { Config } from '../../config.ts';
import { createDb, isPostgres, type Db } from '../../db/kysely.ts';
import type { Stemmer } from '../../html/word-folding.ts';
import { postgresSearch } from './postgres-search.ts';
import { sqliteSearch } from './sqlite-search.ts';
import type { MatchingChapter } from './chapter-window.ts';
import type { SearchOrder, SearchPage } from './search.repository.ts';

/** A page of search: its books, best first, and each one's matching chapter, by book id. */
export interface SearchHits {
  bookIds: number[];
  matchingChapters: Map<number, MatchingChapter>;
}

/** What one call of `indexPending` took from the queue. */
export interface IndexRound {
  /** Queued books and chapters taken (0: nothing left to do). */
  taken: number;
  /** The chapters among them, indexed or taken out of the index. */
  chapters: number[];
}

/**
 * What the rest of the server knows of search: a query, and the indexing of what changed. One
 * indexing path for books and chapters alike (decision 0024): triggers queue a chapter whose text
 * or publication changed (migration 0009) and a book whose title, summary, author names or genres
 * changed (0011); SearchIndexer calls `indexPending` on a timer. No other module writes the index.
 * One implementation per engine, chosen once at start (app.ts): sqlite-search.ts and
 * postgres-search.ts.
 */
export interface SearchEngine {
  /**
   * Ids of published books matching the text and `order.where` (a list's filters, inside the
   * query so that pages stay whole), in `order.sort` (best first by default); any text answers a
   * list, never an error.
   */
  searchBookIds(q: string, page: SearchPage, order?: SearchOrder): Promise<number[]>;
  /**
   * The same books, and why they matched (issue 21): for each, its first published chapter in
   * reading order among the matches of the search's chapter window (decision 0031), with its
   * title and HTML; books with none there are absent from `matchingChapters`.
   */
  searchWithMatches(q: string, page: SearchPage, order?: SearchOrder): Promise<SearchHits>;
  /** How the index reduces a lower-cased word to its stem (stemmers.ts): what a snippet marks. */
  readonly stem: Stemmer;
  /**
   * Rebuilds the documents of pending books and indexes the oldest pending chapters but the
   * `resting` ones, `batch` of each in one transaction: how many queued books and chapters it
   * took (none when nothing is pending) and the chapters it indexed or took out, or null when
   * another process has the turn.
   */
  indexPending(batch: number, resting: readonly number[]): Promise<IndexRound | null>;
  /** Chapters per transaction that suits the engine. */
  readonly indexBatch: number;
  /** Queued changes of books and chapters not yet in the index. */
  countPending(): Promise<number>;
  /** Releases what the engine holds of its own (search's pool). */
  close(): Promise<void>;
}

/**
 * The engine for the database: on PostgreSQL with its own pool of `SEARCH_POOL_SIZE` connections
 * and `SEARCH_TIMEOUT_MS` statement timeout; SQLite's one connection otherwise. `readOnly`: for
 * a read worker's engine, which only queries.
 */
export function createSearchEngine(
  db: Db,
  config: Config,
  options: { readOnly?: boolean } = {},
): SearchEngine {
  if (!isPostgres(db)) return sqliteSearch(db);
  const queryDb = createDb(config.DATABASE_URL, {
    size: config.SEARCH_POOL_SIZE,
    waitMs: config.DB_POOL_WAIT_MS,
    statementTimeoutMs: config.SEARCH_TIMEOUT_MS,
    randomPageCost: config.PG_RANDOM_PAGE_COST,
    readOnly: options.readOnly,
  });
  return postgresSearch({
    db,
    queryDb,
    bucketKeys: config.SEARCH_BUCKET_KEYS === 'on',
    close: () => queryDb.destroy(),
  });
}
