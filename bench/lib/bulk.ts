import SQLite from 'better-sqlite3';
import pg from 'pg';
import { textOfSanitized } from '../../apps/server/src/html/sanitize.ts';
import { registerPhraseGrams } from '../../apps/server/src/modules/search/phrase-grams.ts';
import { inBatches } from './api.ts';

export type Engine = 'sqlite' | 'postgres';
type Value = string | number | null;

/**
 * Fast multi-row inserts straight into the database, below the application: the dataset
 * generator writes millions of rows and must not pay for an HTTP call or a Kysely query each.
 */
export interface BulkWriter {
  readonly engine: Engine;
  insert(table: string, columns: readonly string[], rows: Value[][]): Promise<void>;
  /** Waits for every insert sent so far. */
  flush(): Promise<void>;
  /** Runs one statement (DDL, ANALYZE, setval). */
  exec(statement: string): Promise<void>;
  /**
   * Drops the secondary full-text (GIN) indexes of a table for the load and answers how to make
   * them again, exactly as they were: building one at the end is much faster than keeping it up
   * to date row by row. SQLite keeps its FTS5 tables in step through triggers and drops nothing.
   */
  deferIndexes(table: string): Promise<() => Promise<void>>;
  /**
   * Indexes the text of every published chapter for search, as the server's search indexer
   * would (migration 0009), and empties its queue: the load's inserts queued every chapter.
   */
  indexChapterText(): Promise<void>;
  close(): Promise<void>;
}

// SQLite allows 32,766 bound values per statement; PostgreSQL 65,535. Stay under both.
const MAX_VALUES = 30_000;
// Big text rows: keep one statement around a few megabytes.
const MAX_BYTES = 4 * 1024 * 1024;

function batches(columns: readonly string[], rows: Value[][]): Value[][][] {
  const out: Value[][][] = [];
  let current: Value[][] = [];
  let bytes = 0;
  for (const row of rows) {
    const size = row.reduce<number>((sum, v) => sum + (typeof v === 'string' ? v.length : 8), 0);
    if (
      current.length > 0 &&
      ((current.length + 1) * columns.length > MAX_VALUES || bytes + size > MAX_BYTES)
    ) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(row);
    bytes += size;
  }
  if (current.length > 0) out.push(current);
  return out;
}

export function openSqliteWriter(file: string): BulkWriter {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  // Loading a benchmark dataset needs no durability; the server reopens it with its own settings.
  db.pragma('synchronous = OFF');
  db.pragma('foreign_keys = ON');
  db.pragma('cache_size = -262144');
  // The chapter index is filled in SQL below, with the text and word pairs the server's search
  // indexer would compute (decision 0039: the text is read from the HTML).
  registerPhraseGrams(db);
  db.function('inkwell_text_of', { deterministic: true }, (html: unknown) =>
    textOfSanitized(String(html)),
  );
  const statements = new Map<string, SQLite.Statement>();
  const statement = (table: string, columns: readonly string[], count: number) => {
    const key = `${table}:${count}`;
    let found = statements.get(key);
    if (!found) {
      const one = `(${columns.map(() => '?').join(',')})`;
      found = db.prepare(
        `insert into ${table} (${columns.join(',')}) values ${Array(count).fill(one).join(',')}`,
      );
      statements.set(key, found);
    }
    return found;
  };
  return {
    engine: 'sqlite',
    async insert(table, columns, rows) {
      db.transaction(() => {
        for (const batch of batches(columns, rows))
          statement(table, columns, batch.length).run(batch.flat());
      })();
    },
    async flush() {},
    async exec(sql) {
      db.exec(sql);
    },
    async deferIndexes() {
      return async () => {};
    },
    async indexChapterText() {
      db.exec(`insert into chapter_fts (rowid, content_text, phrase_grams)
                 select id, text, inkwell_phrase_grams(text)
                   from (select id, inkwell_text_of(content) as text from chapters
                          where is_published = 1 order by id);
               delete from search_pending;
               delete from search_pending_books;`);
    },
    async close() {
      // Statistics for the planner, as the server's own `PRAGMA optimize` keeps them.
      db.pragma('analysis_limit = 1000');
      db.exec('analyze');
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
    },
  };
}

/**
 * The plain text of a generated chapter's HTML (paragraphs of escaped text, dataset.ts), in SQL:
 * what the server's textOfSanitized reads from it, up to whitespace, which no tsvector keeps.
 * Tokenizing in PostgreSQL keeps both of its cores at the work, as the server's indexer would.
 */
const GENERATED_TEXT_OF_CONTENT = `replace(replace(replace(regexp_replace(content, '<[^>]*>', E'\\n', 'g'),
  '&lt;', '<'), '&gt;', '>'), '&amp;', '&')`;

/**
 * Two connections for chapters, so PostgreSQL computes the tsvector of one batch while the next
 * is sent; other tables go through one, in order: their triggers update shared rows (a book's
 * reader count), and two batches doing that in different orders would deadlock.
 */
export async function openPostgresWriter(url: string): Promise<BulkWriter> {
  const clients = [
    new pg.Client({ connectionString: url }),
    new pg.Client({ connectionString: url }),
  ];
  await Promise.all(clients.map((c) => c.connect()));
  // A dropped connection (the database dropped after a failure) rejects the query in flight;
  // without a listener it would also crash the process.
  for (const client of clients) client.on('error', () => {});
  // Each batch commits by itself; a crash mid-load leaves a dataset nobody uses anyway.
  await Promise.all(clients.map((c) => c.query('set synchronous_commit = off')));
  const inFlight: Array<Promise<unknown> | undefined> = [undefined, undefined];
  let next = 0;
  return {
    engine: 'postgres',
    async insert(table, columns, rows) {
      for (const batch of batches(columns, rows)) {
        const slot = table === 'chapters' ? next++ % clients.length : 0;
        await inFlight[slot];
        let n = 0;
        const tuples = batch.map((row) => `(${row.map(() => `$${++n}`).join(',')})`).join(',');
        inFlight[slot] = clients[slot]!.query(
          `insert into ${table} (${columns.join(',')}) values ${tuples}`,
          batch.flat(),
        );
      }
    },
    async flush() {
      await Promise.all(inFlight);
    },
    async exec(sql) {
      await Promise.all(inFlight);
      await clients[0]!.query(sql);
    },
    async deferIndexes(table) {
      await Promise.all(inFlight);
      const { rows } = await clients[0]!.query<{ indexname: string; indexdef: string }>(
        // Newest first: each later migration's index holds more keys per chapter and takes longest.
        `select indexname, indexdef from pg_indexes
          where tablename = $1 and indexdef ilike '%using gin%'
          order by (schemaname || '.' || indexname)::regclass::oid desc`,
        [table],
      );
      // Index definitions leave out an expression's "no statistics" (migration 0009):
      // without it ANALYZE would compute the expression for every sampled row again.
      const { rows: unsampled } = await clients[0]!.query<{ indexname: string; column: number }>(
        `select c.relname as indexname, a.attnum as column
           from pg_index i join pg_class c on c.oid = i.indexrelid
           join pg_attribute a on a.attrelid = i.indexrelid
          where i.indrelid = $1::regclass and coalesce(a.attstattarget, -1) = 0`,
        [table],
      );
      for (const row of rows) await clients[0]!.query(`drop index ${row.indexname}`);
      return async () => {
        await Promise.all(inFlight);
        await Promise.all(clients.map((c) => c.query(`set maintenance_work_mem = '512MB'`)));
        // PostgreSQL builds a GIN index on one core, and two builds on the same table do not
        // block each other: each idle connection takes the next index, so both cores work.
        const idle = [...clients];
        await inBatches(rows, clients.length, async (row) => {
          const client = idle.pop()!;
          await client.query(row.indexdef);
          idle.push(client);
        });
        for (const { indexname, column } of unsampled)
          await clients[0]!.query(
            `alter index ${indexname} alter column ${column} set statistics 0`,
          );
      };
    },
    async indexChapterText() {
      await Promise.all(inFlight);
      const { rows } = await clients[0]!.query<{ max: number | null }>(
        'select max(id) as max from chapters',
      );
      // Tokenizing is the cost: ranges of ids on both connections keep both cores at it.
      const step = 5_000;
      const ranges = Array.from({ length: Math.ceil((rows[0]?.max ?? 0) / step) }, (_, i) => i);
      const idle = [...clients];
      await inBatches(ranges, clients.length, async (range) => {
        const client = idle.pop()!;
        await client.query(
          `insert into chapter_search (chapter_id, book_id, content_tsv)
           select id, book_id, to_tsvector('english', ${GENERATED_TEXT_OF_CONTENT}) from chapters
            where is_published = 1 and id > $1 and id <= $2`,
          [range * step, (range + 1) * step],
        );
        idle.push(client);
      });
      await clients[0]!.query('truncate search_pending, search_pending_books');
    },
    async close() {
      await Promise.all(inFlight);
      await Promise.all(clients.map((c) => c.end()));
    },
  };
}
