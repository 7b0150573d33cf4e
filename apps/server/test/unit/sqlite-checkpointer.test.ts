import fs from 'node:fs';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeTransaction, type Db, type SqliteCheckpoint } from '../../src/db/kysely.ts';
import { FALLBACK_AUTOCHECKPOINT_PAGES } from '../../src/db/sqlite-checkpointer.ts';
import { descriptorsOn, openSqliteFile } from '../helpers/sqlite-file.ts';

/** A SQLite database on disk with one table. */
async function openDatabase(checkpoint: SqliteCheckpoint) {
  const opened = openSqliteFile({ sqliteCheckpoint: checkpoint });
  await sql`create table t (id integer primary key, x text)`.execute(opened.db);
  return opened;
}

const autocheckpoint = async (db: Db) =>
  (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db)).rows[0]!
    .wal_autocheckpoint;

/** About 3 MB of rows through group commits: some 800 pages, below either automatic threshold. */
async function writeRows(db: Db) {
  const text = 'x'.repeat(16_000);
  for (let batch = 0; batch < 10; batch++)
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        writeTransaction(db, (trx) =>
          sql`insert into t (x) values (${`${text}${batch}-${i}`})`.execute(trx),
        ),
      ),
    );
}

describe('SQLite checkpoints off the event loop (decision 0038)', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  async function track(checkpoint: SqliteCheckpoint) {
    const opened = await openDatabase(checkpoint);
    cleanups.push(opened.remove);
    return opened;
  }

  it('thread: the worker copies committed pages into the database file, the main connection only past the fallback', async () => {
    const { db, file } = await track('thread');
    expect(await autocheckpoint(db)).toBe(FALLBACK_AUTOCHECKPOINT_PAGES);
    const before = fs.statSync(file).size;
    await writeRows(db);
    // Nothing on the main connection checkpoints below 1,000 pages: only the worker can have
    // grown the file to hold the rows.
    await vi.waitFor(() => expect(fs.statSync(file).size).toBeGreaterThan(before + 3_000_000), {
      timeout: 10_000,
      interval: 20,
    });
    expect(
      Number((await sql<{ n: number }>`select count(*) as n from t`.execute(db)).rows[0]!.n),
    ).toBe(200);
  });

  it('inline: SQLite checkpoints in the committing connection, every 1,000 pages', async () => {
    const { db, file } = await track('inline');
    expect(await autocheckpoint(db)).toBe(1000);
    const before = fs.statSync(file).size;
    await writeRows(db);
    // Below 1,000 pages nothing is copied yet: the rows are all in the WAL.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fs.statSync(file).size).toBe(before);
  });

  it('destroying the handle waits until the worker has closed its connection to the file', async () => {
    // One descriptor per connection: the main one, and the worker's.
    const openOnFile = descriptorsOn;
    const { db, file } = await track('thread');
    await writeRows(db);
    // The worker opens its connection as it starts; SQLite defers closing a descriptor while
    // another connection of the process holds locks on the file, so only the count at the end,
    // when every connection is closed, says they all are.
    await vi.waitFor(() => expect(openOnFile(file)).toBe(2), { timeout: 10_000, interval: 10 });
    await db.destroy();
    expect(openOnFile(file)).toBe(0);
  });
});
