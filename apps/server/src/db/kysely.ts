import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect, SqliteDialect, type Transaction } from 'kysely';
import pg from 'pg';
import { isPostgresUrl } from '../config.ts';
import type { Schema } from './schema.ts';

export type Db = Kysely<Schema>;
/** Repository functions accept either the root handle or a transaction. */
export type DbHandle = Kysely<Schema> | Transaction<Schema>;

// PostgreSQL answers COUNT(*) and other int8 values as strings; our ids and counts fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export function createDb(databaseUrl: string): Db {
  if (isPostgresUrl(databaseUrl)) {
    const pool = new pg.Pool({
      connectionString: databaseUrl,
      max: 10,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
    });
    // A dropped connection (server restart) must not crash the process; the pool reconnects.
    // The pool's listener covers idle clients only: a client checked out between two queries
    // (inside a transaction) emits its own 'error', which would otherwise be unhandled. The query
    // in progress still fails (503), and the pool discards the broken client when it comes back.
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    return new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
  }
  return new Kysely<Schema>({ dialect: new SqliteDialect({ database: openSqlite(databaseUrl) }) });
}

function openSqlite(file: string): SQLite.Database {
  const filename = file.replace(/^sqlite:(\/\/)?/, '');
  if (filename !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(filename)), { recursive: true });
  const database = new SQLite(filename);
  // WAL lets readers run beside the writer. synchronous=FULL makes every acknowledged commit
  // durable across power loss and SIGKILL (docs/decisions/0002-sqlite-durability.md).
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  return database;
}

export function isPostgres(db: DbHandle): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
