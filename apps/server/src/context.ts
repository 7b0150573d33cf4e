import type { Config } from './config.ts';
import type { Db } from './db/kysely.ts';
import type { EpubStore } from './modules/exports/epub-store.ts';
import type { ViewCounter } from './modules/stats/view-counter.ts';
import type { Reads } from './modules/reads/read-services.ts';
import type { SearchEngine } from './modules/search/search-engine.ts';
import type { SearchIndexer } from './modules/search/search-indexer.ts';
import type { EventBus } from './realtime/events.ts';
import type { Limits } from './lib/shared-limits.ts';
import type { UploadStore } from './lib/upload-store.ts';

/** What services need from the outside world; built once in buildApp and handed to every route. */
export interface AppContext {
  db: Db;
  /** Search's queries and indexing, for the database's engine (on PostgreSQL with its own
   * connections, so a slow search never holds `db`'s). */
  search: SearchEngine;
  /** Searches and book lists, answered on read worker threads or here (READ_WORKERS). */
  reads: Reads;
  /** Indexes chapter text after the writes (migration 0009). */
  searchIndexer: SearchIndexer;
  config: Config;
  events: EventBus;
  /** Per-user and per-key limits: in Redis for every process when there is one, else in memory. */
  limits: Limits;
  uploads: UploadStore;
  /** EPUBs this process has built, kept until their book changes. */
  epubs: EpubStore;
  /** Visitors' chapter views, counted in this process's memory and written in batches (issue 20). */
  views: ViewCounter;
}

/**
 * What a read of books and search needs, and all that a read worker (modules/reads) has: its own
 * read-only connection and a search engine on it.
 */
export type ReadContext = Pick<AppContext, 'db' | 'search'>;

/** The signed-in user making a request, as resolved from the bearer token or the session cookie. */
export interface Viewer {
  id: number;
  username: string;
  sessionId: number;
  /** When this session signed in (ISO 8601): a password change without the current password is
   * let through only shortly after (sudo mode). */
  signedInAt: string;
}
