import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { writeStatement, writeTransaction, type Db } from '../../src/db/kysely.ts';
import { conflict } from '../../src/lib/errors.ts';
import { openSqliteFile, type SqliteFile } from '../helpers/sqlite-file.ts';

// SQLite's group commit (decision 0011): writes that arrive together share one transaction, and
// one that fails takes nothing of the others with it. A write of several statements runs in a
// savepoint of its own; a write of one statement (writeStatement) needs none.
const rows = async (db: Db) =>
  (await sql<{ x: number }>`select x from t order by x`.execute(db)).rows.map((r) => r.x);

describe('SQLite group commit', () => {
  let opened: SqliteFile | undefined;
  afterEach(async () => {
    await opened?.remove();
    opened = undefined;
  });
  async function database() {
    opened = openSqliteFile();
    await sql`create table t (x integer primary key)`.execute(opened.db);
    return opened.db;
  }

  it('commits the writes of a batch but one that failed, whole (several statements) or refused (one)', async () => {
    const db = await database();
    const outcomes = await Promise.allSettled([
      writeStatement(db, (handle) => sql`insert into t (x) values (1)`.execute(handle)),
      // Two statements, the second failing: its first is undone with it.
      writeTransaction(db, async (trx) => {
        await sql`insert into t (x) values (2)`.execute(trx);
        await sql`insert into t (x) values (1)`.execute(trx);
      }),
      // One statement matching nothing, then a refusal.
      writeStatement(db, async (handle) => {
        await sql`update t set x = 30 where x = 3`.execute(handle);
        throw conflict('stale');
      }),
      writeStatement(db, (handle) => sql`insert into t (x) values (4)`.execute(handle)),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
    ]);
    expect(await rows(db)).toEqual([1, 4]);
  });

  it('fails the whole batch when a one-statement write fails with anything but a refusal', async () => {
    const db = await database();
    const outcomes = await Promise.allSettled([
      writeStatement(db, (handle) => sql`insert into t (x) values (5)`.execute(handle)),
      // A constraint error: without a savepoint of its own, the batch cannot know what it undid.
      writeStatement(db, (handle) => sql`insert into t (x) values (5)`.execute(handle)),
      writeStatement(db, (handle) => sql`insert into t (x) values (6)`.execute(handle)),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(await rows(db)).toEqual([]);
  });
});
