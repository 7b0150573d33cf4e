import {
  CompiledQuery,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
} from 'kysely';

/**
 * Kysely's SQLite dialect, but every transaction starts with BEGIN IMMEDIATE, which takes the
 * database's write lock at once (waiting out busy_timeout when another process holds it).
 *
 * Kysely begins with a plain (deferred) BEGIN: the transaction reads from a snapshot and asks for
 * the write lock only at its first write. If another process (`npm run import`, a second server on
 * the same file) committed in between, SQLite cannot let it write from that stale snapshot and
 * answers "database is locked" (SQLITE_BUSY_SNAPSHOT) at once, without waiting. Within one process
 * nothing changes: the dialect's single connection runs one transaction at a time anyway, and
 * reads outside transactions still run beside another process's writer (WAL).
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}
