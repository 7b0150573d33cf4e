import { spawn } from 'node:child_process';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { writeTransaction } from '../../src/db/kysely.ts';
import { openSqliteFile, type SqliteFile } from '../helpers/sqlite-file.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');

/** Another process writing one row to the same file, as `npm run import` beside a server does. */
function writerProcess(file: string, x: number): Promise<{ code: number | null; stderr: string }> {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(${JSON.stringify(file)});
    db.pragma('busy_timeout = 10000');
    db.prepare('insert into t (x) values (?)').run(${x});
    db.close();
  `;
  const child = spawn(process.execPath, ['-e', script], { cwd: repoRoot });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

describe('SQLite write transactions beside another process', () => {
  let opened: SqliteFile | undefined;
  afterEach(async () => {
    await opened?.remove();
    opened = undefined;
  });

  it('take the write lock as they begin, so a write from another process in the middle waits instead of failing them', async () => {
    opened = openSqliteFile();
    const { db, file } = opened;
    await sql`create table t (x integer primary key)`.execute(db);
    await sql`insert into t (x) values (0)`.execute(db);

    let other!: Promise<{ code: number | null; stderr: string }>;
    await writeTransaction(db, async (trx) => {
      // A read first: a transaction begun without the lock would now hold a snapshot, and the
      // other process's commit below would make its own first write fail ("database is locked").
      await sql`select count(*) from t`.execute(trx);
      other = writerProcess(file, 2);
      // Long enough for the other process to commit, had it not had to wait for this one.
      await Promise.race([other, delay(1_500)]);
      await sql`insert into t (x) values (1)`.execute(trx);
    });
    const { code, stderr } = await other;
    expect(code, stderr).toBe(0);
    const rows = await sql<{ x: number }>`select x from t order by x`.execute(db);
    expect(rows.rows.map((r) => r.x)).toEqual([0, 1, 2]);
  });
});
