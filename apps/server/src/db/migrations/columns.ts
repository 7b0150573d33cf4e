import type { CreateTableBuilder } from 'kysely';

/** The engine a migration writes for. */
export type Engine = 'sqlite' | 'postgres';

/**
 * An integer id that the database numbers: serial on PostgreSQL, an autoincrement rowid on
 * SQLite. Shared by the migrations (which import nothing of the application), so the column is
 * spelled one way in every table.
 */
export function withId<T extends string>(table: CreateTableBuilder<T>, engine: Engine) {
  return engine === 'postgres'
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}
