import fs from 'node:fs';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDb, writeTransaction, type Db, type SqliteCommitSync } from '../../src/db/kysely.ts';
import { openSqliteFile, type SqliteFile } from '../helpers/sqlite-file.ts';

/** A SQLite database on disk, and what its group commits sync. */
const openDatabase = (sync: SqliteCommitSync) => openSqliteFile({ sqliteCommitSync: sync });

/** Every file the code under test opens for a sync; each datasync waits until `release`. */
function holdSyncs() {
  const opened: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const open = fs.promises.open.bind(fs.promises);
  vi.spyOn(fs.promises, 'open').mockImplementation(async (file, flags, mode) => {
    opened.push(String(file));
    const handle = await open(file, flags, mode);
    const datasync = handle.datasync.bind(handle);
    handle.datasync = async () => {
      await released;
      return datasync();
    };
    return handle;
  });
  return { opened, release };
}

const insert = (db: Db, x: number) =>
  writeTransaction(db, async (trx) => {
    await sql`insert into t (x) values (${x})`.execute(trx);
    return x;
  });

const count = async (db: Db) =>
  Number((await sql<{ n: number }>`select count(*) as n from t`.execute(db)).rows[0]!.n);

const synchronous = async (db: Db) =>
  (await sql<{ synchronous: number }>`pragma synchronous`.execute(db)).rows[0]!.synchronous;

/** Lets the group commit run its batch (it waits two turns of the event loop) and more. */
const turns = async (n = 10) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** Waits until the batch has committed and asked for its sync (the open runs on the thread pool). */
const syncAsked = (opened: string[]) =>
  vi.waitFor(() => expect(opened.length).toBeGreaterThan(0), { timeout: 5_000, interval: 1 });

describe('SQLite group commit: the fsync after COMMIT', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    vi.restoreAllMocks();
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  function track(opened: SqliteFile) {
    cleanups.push(opened.remove);
    return opened;
  }

  it('thread: a batch is committed first, and its writers hear back only once the WAL is synced', async () => {
    const { db, file } = track(openDatabase('thread'));
    await sql`create table t (x integer)`.execute(db);
    const syncs = holdSyncs();

    let heard = 0;
    const writes = [1, 2, 3].map((x) => insert(db, x).then((value) => (heard += value)));
    await syncAsked(syncs.opened);
    await turns();
    // Committed (another statement reads the rows), yet nobody was told: the sync is pending.
    expect(await count(db)).toBe(3);
    expect(heard).toBe(0);
    expect(syncs.opened).toEqual([`${file}-wal`]);
    // The COMMIT alone ran without its fsync; every other statement still runs at FULL (2).
    expect(await synchronous(db)).toBe(2);

    syncs.release();
    await Promise.all(writes);
    expect(heard).toBe(6);
  });

  it('thread: a write that fails in its batch is refused and the others are still synced', async () => {
    const { db } = track(openDatabase('thread'));
    await sql`create table t (x integer check (x > 0))`.execute(db);
    const syncs = holdSyncs();
    const good = insert(db, 1);
    const bad = insert(db, -1);
    await syncAsked(syncs.opened);
    syncs.release();
    await expect(good).resolves.toBe(1);
    await expect(bad).rejects.toThrow(/CHECK constraint/);
    expect(await count(db)).toBe(1);
    expect(syncs.opened).toHaveLength(1);
  });

  it('inline: the fsync is COMMIT’s own, and no file is opened to sync', async () => {
    const { db } = track(openDatabase('inline'));
    await sql`create table t (x integer)`.execute(db);
    const syncs = holdSyncs();
    await expect(Promise.all([insert(db, 1), insert(db, 2)])).resolves.toEqual([1, 2]);
    expect(syncs.opened).toEqual([]);
    expect(await synchronous(db)).toBe(2);
  });

  it('an in-memory database has no WAL to sync: its writes commit as before', async () => {
    const db = createDb('sqlite::memory:');
    cleanups.push(() => db.destroy());
    await sql`create table t (x integer)`.execute(db);
    const syncs = holdSyncs();
    await expect(insert(db, 5)).resolves.toBe(5);
    expect(syncs.opened).toEqual([]);
  });
});
