import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  sql,
  type LogEvent,
  type RawBuilder,
  type SqliteDatabase,
  type Transaction,
} from 'kysely';
import pg from 'pg';
import { isPostgresUrl } from '../config.ts';
import { AppError } from '../lib/errors.ts';
import { prepareRepeatedStatements } from './postgres-prepared-statements.ts';
import {
  FALLBACK_AUTOCHECKPOINT_PAGES,
  startCheckpointer,
  type Checkpointer,
} from './sqlite-checkpointer.ts';
import type { Schema } from './schema.ts';
import { ImmediateSqliteDialect } from './sqlite-dialect.ts';

export type Db = Kysely<Schema>;
/** Repository functions accept either the root handle or a transaction. */
export type DbHandle = Kysely<Schema> | Transaction<Schema>;

// PostgreSQL answers COUNT(*) and other int8 values as strings; our ids and counts fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

/**
 * How a SQLite group commit reaches the disk (decision 0036). `thread`: its COMMIT skips the
 * fsync and the WAL is fsynced on libuv's thread pool right after, off the event loop; `inline`:
 * the fsync runs inside COMMIT on the event loop (synchronous=FULL). Either way a writer hears
 * back only once its write is on disk.
 */
export type SqliteCommitSync = 'thread' | 'inline';

/**
 * Where SQLite copies its WAL back into the database file (decision 0038). `thread`: a worker
 * thread with its own connection, after each group commit; `inline`: SQLite's default, inside
 * the COMMIT that passes 1,000 pages of WAL, on the event loop.
 */
export type SqliteCheckpoint = 'thread' | 'inline';

/**
 * A PostgreSQL connection pool's size and limits (SQLite has one connection and ignores them),
 * and how SQLite's group commits sync (PostgreSQL ignores that).
 */
export interface PoolOptions {
  /** Connections at most. */
  size: number;
  /** How long a query waits for a free connection before it fails (503, "retry"). */
  waitMs: number;
  /** Longest a statement may run before PostgreSQL cancels it; 0 for no limit. */
  statementTimeoutMs: number;
  sqliteCommitSync?: SqliteCommitSync;
  sqliteCheckpoint?: SqliteCheckpoint;
  /**
   * A handle that only reads (a read worker's, modules/reads): PostgreSQL refuses its writes
   * (default_transaction_read_only), and a SQLite connection is opened query-only, leaving the
   * file's settings, statistics and checkpoints to the server's own connection.
   */
  readOnly?: boolean;
  /**
   * PostgreSQL's `random_page_cost` for this pool's sessions: PLANNER_RANDOM_PAGE_COST when not
   * given, `server` to keep the server's own setting (PG_RANDOM_PAGE_COST).
   */
  randomPageCost?: number | 'server';
}

/**
 * What PostgreSQL's planner takes a page read out of order to cost, against 1 for one read in
 * order. The server's default of 4 prices a disk that seeks; on SSDs, or with the hot pages in
 * memory, 1.1 is the usual setting (decision 0042). At 4 the planner scanned the whole tags table
 * for each book of a page, to find three names, and read a page of books by id through a bitmap.
 */
export const PLANNER_RANDOM_PAGE_COST = 1.1;

/**
 * The settings of the server's PostgreSQL sessions. No parallel workers or JIT: requests are
 * short and many, and starting a plan's workers or compiling it takes longer than such a
 * request's work (decision 0019).
 */
function sessionOptions(poolOptions: PoolOptions): string {
  const randomPageCost = poolOptions.randomPageCost ?? PLANNER_RANDOM_PAGE_COST;
  return [
    '-c max_parallel_workers_per_gather=0',
    '-c jit=off',
    `-c statement_timeout=${poolOptions.statementTimeoutMs}`,
    ...(randomPageCost === 'server' ? [] : [`-c random_page_cost=${randomPageCost}`]),
    ...(poolOptions.readOnly ? ['-c default_transaction_read_only=on'] : []),
  ].join(' ');
}

const DEFAULT_POOL: PoolOptions = { size: 10, waitMs: 5_000, statementTimeoutMs: 0 };

/**
 * What a SQLite handle's group commits do after COMMIT, off the event loop: the WAL file they
 * fsync (SQLITE_COMMIT_SYNC=thread), and the checkpointer they tell (SQLITE_CHECKPOINT=thread).
 */
const afterCommit = new WeakMap<Db, { walFile?: string; checkpointer?: Checkpointer }>();

/**
 * A database handle for `databaseUrl`. `log` sees every statement run (tests read search's
 * statements back to EXPLAIN them).
 */
export function createDb(
  databaseUrl: string,
  poolOptions: PoolOptions = DEFAULT_POOL,
  log?: (event: LogEvent) => void,
): Db {
  if (isPostgresUrl(databaseUrl)) {
    const pool = new pg.Pool({
      connectionString: databaseUrl,
      options: sessionOptions(poolOptions),
      max: poolOptions.size,
      connectionTimeoutMillis: poolOptions.waitMs,
      idleTimeoutMillis: 30_000,
    });
    // A dropped connection (server restart) must not crash the process; the pool reconnects.
    // The pool's listener covers idle clients only: a client checked out between two queries
    // (inside a transaction) emits its own 'error', which would otherwise be unhandled. The query
    // in progress still fails (503), and the pool discards the broken client when it comes back.
    pool.on('error', () => {});
    pool.on('connect', (client) => {
      client.on('error', () => {});
      prepareRepeatedStatements(client);
    });
    return new Kysely<Schema>({ dialect: new PostgresDialect({ pool }), log });
  }
  if (poolOptions.readOnly) return readOnlySqlite(databaseUrl, log);
  const { database, filename, walFile } = openSqlite(databaseUrl);
  let checkpointer: Checkpointer | undefined;
  if (walFile && (poolOptions.sqliteCheckpoint ?? 'thread') === 'thread') {
    database.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
    checkpointer = startCheckpointer(filename);
  }
  const db = new Kysely<Schema>({
    dialect: new ImmediateSqliteDialect({
      database: withStatementCache(database, () => void checkpointer?.close()),
    }),
    log,
  });
  if (checkpointer) awaitCheckpointerOnDestroy(db, checkpointer);
  afterCommit.set(db, {
    ...(walFile && (poolOptions.sqliteCommitSync ?? 'thread') === 'thread' && { walFile }),
    ...(checkpointer && { checkpointer }),
  });
  return db;
}

/**
 * A SQLite connection that only reads, beside the server's own (which set the file up). Kysely
 * closes a connection only if it ran a query, so `destroy()` also closes one that never did: a
 * worker thread must not end with it open (decision 0038).
 */
function readOnlySqlite(databaseUrl: string, log?: (event: LogEvent) => void): Db {
  const database = new SQLite(sqliteFilename(databaseUrl));
  database.pragma('busy_timeout = 5000');
  database.pragma('query_only = 1');
  database.pragma(`mmap_size = ${SQLITE_MMAP_BYTES}`);
  const db = new Kysely<Schema>({
    dialect: new ImmediateSqliteDialect({ database: withStatementCache(database, () => {}) }),
    log,
  });
  const destroy = db.destroy.bind(db);
  db.destroy = async () => {
    await destroy();
    if (database.open) database.close();
  };
  return db;
}

/**
 * Kysely closes the SQLite connection without waiting for anything (its driver's `close()` is
 * synchronous), so `destroy()` is extended to also wait until the checkpointer's thread has
 * closed its own connection and exited: whoever destroys the handle can then end the process.
 */
function awaitCheckpointerOnDestroy(db: Db, checkpointer: Checkpointer): void {
  const destroy = db.destroy.bind(db);
  db.destroy = async () => {
    await destroy();
    await checkpointer.close();
  };
}

/** Prepared statements kept per SQLite connection; queries with IN lists of many lengths rotate out. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SQLite driver prepares every query anew, which costs more than running a small one.
 * Statements are kept by their SQL text (least recently used out first). A statement that is
 * still being iterated (a streamed query) is busy, so a second use gets its own fresh statement.
 */
function withStatementCache(database: SQLite.Database, onClose: () => void): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => {
      database.close();
      onClose();
    },
    prepare(text: string) {
      const cached = cache.get(text);
      if (cached && !cached.busy) {
        cache.delete(text);
        cache.set(text, cached);
        return cached;
      }
      const statement = database.prepare(text);
      if (!cached) {
        cache.set(text, statement);
        if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      }
      return statement;
    },
  };
}

const sqliteFilename = (url: string) => url.replace(/^sqlite:(\/\/)?/, '');

/** How much of a SQLite file a connection reads through a memory map (openSqlite says why). */
const SQLITE_MMAP_BYTES = 1_073_741_824;

/** The connection, its file, and its WAL file when it has one (an in-memory database has none). */
function openSqlite(file: string): {
  database: SQLite.Database;
  filename: string;
  walFile?: string;
} {
  const filename = sqliteFilename(file);
  if (filename !== ':memory:')
    fs.mkdirSync(path.dirname(path.resolve(filename)), { recursive: true });
  const database = new SQLite(filename);
  // WAL lets readers run beside the writer. synchronous=FULL makes every acknowledged commit
  // durable across power loss and SIGKILL (docs/decisions/0002-sqlite-durability.md).
  // First: what follows may need a lock that another process (a second server, `npm run import`)
  // holds for a moment, and waits for it rather than failing at once.
  database.pragma('busy_timeout = 5000');
  const journal = database.pragma('journal_mode = WAL', { simple: true });
  database.pragma('synchronous = FULL');
  database.pragma('foreign_keys = ON');
  // Chapters are long rows spread over overflow pages; reading them through a memory map instead
  // of one read() call per page makes a chapter read cheap. Pages the map holds are the OS page
  // cache's, shared and reclaimable, not this process's heap.
  database.pragma(`mmap_size = ${SQLITE_MMAP_BYTES}`);
  // Planner statistics for the tables that lack them or changed much, gathered from a sample
  // (the "analysis limit"): SQLite's advice for long-lived connections, and what autovacuum's
  // ANALYZE is to PostgreSQL. Search plans do not depend on them (search-at-scale.test.ts).
  database.pragma('optimize = 0x10002');
  return {
    database,
    filename,
    ...(journal === 'wal' && { walFile: `${path.resolve(filename)}-wal` }),
  };
}

/**
 * fsync (data only) of a file through a descriptor of its own, on libuv's thread pool: it flushes
 * what any descriptor wrote to it. Opened for each sync, so it is always the file SQLite writes.
 */
async function syncFile(file: string): Promise<void> {
  const handle = await fs.promises.open(file, 'r');
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

export function isPostgres(db: DbHandle): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** A long text column as `longText` reads it: its bytes on SQLite, a string on PostgreSQL. */
export type LongText = string | Buffer;

/**
 * A long text column (a chapter's HTML) to select, made a string by `decodeLongText`. On SQLite
 * it is read as its bytes and decoded by Node: better-sqlite3 makes TEXT a string with V8's own
 * UTF-8 decoder, several times slower for a chapter's 16 KB (bench/README.md, "2026-12-01
 * (04:00 UTC)"). PostgreSQL's driver decodes with Node's already.
 */
export function longText(db: DbHandle, column: string): RawBuilder<LongText> {
  return isPostgres(db)
    ? sql<LongText>`${sql.ref(column)}`
    : sql<LongText>`cast(${sql.ref(column)} as blob)`;
}

/** The string of a column read by `longText`. */
export const decodeLongText = (value: LongText): string =>
  typeof value === 'string' ? value : value.toString('utf8');

type WriteWork<T> = (trx: Transaction<Schema>) => Promise<T>;

interface PendingWrite {
  work: WriteWork<unknown>;
  /** The work writes with one statement (writeStatement): SQLite undoes it alone if it fails. */
  oneStatement: boolean;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/**
 * Group commit for SQLite: writes that arrive in the same turn of the event loop run one after
 * the other inside one transaction, each in its own savepoint, and share one COMMIT (one fsync,
 * which synchronous=FULL makes the expensive part). A write that fails rolls back to its
 * savepoint only; the others still commit. Every caller hears back only once the commit is on
 * disk, so an acknowledged write is as durable as with a transaction of its own
 * (docs/decisions/0011-sqlite-group-commit-and-statement-cache.md).
 */
class GroupCommit {
  private queue: PendingWrite[] = [];
  private scheduled = false;
  private readonly db: Db;
  private readonly after: { walFile?: string; checkpointer?: Checkpointer };

  /**
   * walFile: the WAL to fsync after each COMMIT, off the event loop (SQLITE_COMMIT_SYNC=thread);
   * checkpointer: told after each COMMIT (SQLITE_CHECKPOINT=thread).
   */
  constructor(db: Db, after: { walFile?: string; checkpointer?: Checkpointer }) {
    this.db = db;
    this.after = after;
  }

  run<T>(work: WriteWork<T>, oneStatement = false): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, oneStatement, resolve: resolve as (value: unknown) => void, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      // setImmediate runs after the poll phase, so every request read from the sockets in this
      // turn has had its chance to join the batch. The batch then waits one more turn: under load
      // the requests that arrived while this turn's were being handled (the writers answered by
      // the previous commit) join it too, so more writes share each fsync. An idle server loses
      // one empty turn of the loop (decision 0014).
      setImmediate(() => setImmediate(() => void this.flush()));
    });
  }

  private async flush(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    this.scheduled = false;
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    try {
      await this.durableTransaction(async (trx) => {
        if (batch.length === 1) {
          outcomes.push({ ok: true, value: await batch[0]!.work(trx) });
          return;
        }
        for (const item of batch) {
          if (item.oneStatement) {
            // Its one statement is atomic by itself, so it needs no savepoint: a refusal it
            // answers (AppError) wrote nothing. Any other failure fails the batch, as a failed
            // statement may have ended the whole transaction (SQLITE_FULL, _IOERR, ...).
            try {
              outcomes.push({ ok: true, value: await item.work(trx) });
            } catch (error) {
              if (!(error instanceof AppError)) throw error;
              outcomes.push({ ok: false, error });
            }
            continue;
          }
          await sql`savepoint group_write`.execute(trx);
          try {
            outcomes.push({ ok: true, value: await item.work(trx) });
          } catch (error) {
            await sql`rollback to savepoint group_write`.execute(trx);
            outcomes.push({ ok: false, error });
          }
          await sql`release savepoint group_write`.execute(trx);
        }
      });
    } catch (error) {
      // Nothing of this batch committed (or a lone write failed): every caller hears the error.
      for (const item of batch) item.reject(error);
      return;
    }
    for (const [index, item] of batch.entries()) {
      const outcome = outcomes[index]!;
      if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.error);
    }
  }

  /**
   * One transaction, on disk when this resolves. With a WAL to sync off the loop, the COMMIT runs
   * at synchronous=NORMAL (it writes the WAL without an fsync; the setting may only change outside
   * a transaction, hence the connection held around it, so no other statement runs at NORMAL),
   * and the WAL is fsynced once the connection is free for the next batch (decision 0036).
   */
  private async durableTransaction(work: WriteWork<void>): Promise<void> {
    const { walFile, checkpointer } = this.after;
    if (walFile === undefined) {
      await this.db.transaction().execute(work);
      checkpointer?.committed();
      return;
    }
    await this.db.connection().execute(async (connection) => {
      await sql`pragma synchronous = normal`.execute(connection);
      try {
        await connection.transaction().execute(work);
      } finally {
        await sql`pragma synchronous = full`.execute(connection);
      }
    });
    await syncFile(walFile);
    // After the sync: the checkpoint copies only what is on disk in the WAL (it syncs it anyway).
    checkpointer?.committed();
  }
}

const groupCommits = new WeakMap<Db, GroupCommit>();

/**
 * Runs `work` in a write transaction. PostgreSQL: a transaction of its own (the server groups
 * concurrent commits itself). SQLite: shared with the writes that arrive together (GroupCommit),
 * so frequent small writes such as autosaves pay one fsync per batch instead of one each. `work`
 * must use only the handle it is given.
 */
export function writeTransaction<T>(db: Db, work: WriteWork<T>): Promise<T> {
  if (isPostgres(db)) return db.transaction().execute(work);
  return groupCommitOf(db).run(work);
}

function groupCommitOf(db: Db): GroupCommit {
  let group = groupCommits.get(db);
  if (!group) {
    group = new GroupCommit(db, afterCommit.get(db) ?? {});
    groupCommits.set(db, group);
  }
  return group;
}

/**
 * Runs `work`, which writes with one statement (reading more only when that write matched
 * nothing, to say why, and then refusing with an AppError), as a write of its own. PostgreSQL:
 * straight on the pool, without BEGIN and COMMIT, two more round trips for what one statement
 * already does atomically. SQLite: in the group commit, without the savepoint a write of several
 * statements takes there.
 */
export function writeStatement<T>(db: Db, work: (handle: DbHandle) => Promise<T>): Promise<T> {
  return isPostgres(db) ? work(db) : groupCommitOf(db).run(work, true);
}
