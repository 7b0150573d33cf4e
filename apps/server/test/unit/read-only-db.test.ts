import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/kysely.ts';
import { descriptorsOn, openSqliteFile } from '../helpers/sqlite-file.ts';

const readOnly = (file: string) =>
  createDb(`sqlite:${file}`, { size: 1, waitMs: 1_000, statementTimeoutMs: 0, readOnly: true });

/**
 * A read worker's SQLite handle (decision 0041): it reads what the server's connection wrote,
 * refuses writes, and `destroy()` closes its connection even if it never ran a query (Kysely
 * alone would leave it open, and a worker thread must not end with one open: decision 0038).
 */
describe('a read-only SQLite handle', () => {
  it('reads, refuses writes, and closes its connection when destroyed', async () => {
    const { db, file, remove } = openSqliteFile();
    await sql`create table t (id integer primary key, x text)`.execute(db);
    await sql`insert into t (x) values ('written')`.execute(db);
    const reader = readOnly(file);
    try {
      const { rows } = await sql<{ x: string }>`select x from t`.execute(reader);
      expect(rows).toEqual([{ x: 'written' }]);
      await expect(sql`insert into t (x) values ('no')`.execute(reader)).rejects.toThrow(
        /readonly/i,
      );
    } finally {
      await reader.destroy();
      await remove();
    }
  });

  it('closes a connection that never ran a query', async () => {
    const { db, file, remove } = openSqliteFile();
    await sql`create table t (id integer primary key)`.execute(db);
    await db.destroy();
    try {
      expect(descriptorsOn(file)).toBe(0);
      const reader = readOnly(file);
      expect(descriptorsOn(file)).toBe(1);
      await reader.destroy();
      expect(descriptorsOn(file)).toBe(0);
    } finally {
      await remove();
    }
  });
});
