import { spawn } from 'node:child_process';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { writeTransaction } from '../../src/db/kysely.ts';
import { openSqliteFile, type SqliteFile } from '../helpers/sqlite-file.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');

/**
 * Another process writing one row to the same file, as `npm run import` beside a server does.
 * `trying` settles once it has opened the file and is about to write; `done` when it has exited.
 */
function writerProcess(file: string, x: number) {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(${JSON.stringify(file)});
    db.pragma('busy_timeout = 10000');
    process.stdout.write('trying\\n');
    db.prepare('insert into t (x) values (?)').run(${x});
    db.close();
  `;
  const child = spawn(process.execPath, ['-e', script], { cwd: repoRoot });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stderr })),
  );
  const trying = new Promise<void>((resolve) => {
    child.stdout.on('data', () => resolve());
    void done.then(() => resolve());
  });
  return { trying, done };
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

    let other!: ReturnType<typeof writerProcess>;
    await writeTransaction(db, async (trx) => {
      // A read first: a transaction begun without the lock would now hold a snapshot, and the
      // other process's commit below would make its own first write fail ("database is locked").
      await sql`select count(*) from t`.execute(trx);
      other = writerProcess(file, 2);
      await other.trying;
      // Ample time for the other process to commit, had it not had to wait for this one.
      await Promise.race([other.done, delay(500)]);
      await sql`insert into t (x) values (1)`.execute(trx);
    });
    const { code, stderr } = await other.done;
    expect(code, stderr).toBe(0);
    const rows = await sql<{ x: number }>`select x from t order by x`.execute(db);
    expect(rows.rows.map((r) => r.x)).toEqual([0, 1, 2]);
  });
});
