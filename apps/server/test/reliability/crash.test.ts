import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/kysely.ts';
import { createTestDatabase, testEngine, type TestDatabase } from '../helpers/database.ts';
import { CLEAN, checkIntegrity } from './helpers/integrity.ts';
import { Ledger, type StoredChapter } from './helpers/ledger.ts';
import { startServer, stopAllServers } from './helpers/process.ts';
import {
  newStats,
  setUpBook,
  signupOver,
  storedChapters,
  writeUntil,
  type Writer,
} from './helpers/workload.ts';

/**
 * A real server process is killed with SIGKILL while four authors autosave, publish, add and
 * delete chapters; a new process on the same database must hold every acknowledged write.
 */
const WRITERS = 4;
const WRITES_BEFORE_KILL = 80;

let database: TestDatabase | undefined;
afterAll(async () => {
  await stopAllServers();
  await database?.drop();
});

const waitFor = async (done: () => boolean, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
};

describe(`SIGKILL in the middle of a stream of writes (${testEngine()})`, () => {
  it('loses no acknowledged write, keeps the database sound and chapter orders without gaps', async () => {
    database = await createTestDatabase();
    const env = { DATABASE_URL: database.url };
    const first = await startServer(env);

    const ledger = new Ledger();
    const writers: Writer[] = [];
    for (let i = 0; i < WRITERS; i++) {
      const user = await signupOver(first.http, `crash_writer_${i}_${Date.now() % 100_000}`);
      writers.push(await setUpBook(first.http, user.token, `Crash Book ${i}`, 4, ledger));
    }
    const stats = newStats();
    let killed = false;
    const streams = writers.map((writer, i) =>
      writeUntil(
        first.http,
        writer,
        ledger,
        () => stats,
        () => killed,
        { name: `w${i}` },
      ),
    );
    const before = ledger.acknowledged;
    await waitFor(() => ledger.acknowledged - before >= WRITES_BEFORE_KILL, 20_000);
    const exit = await first.stop('SIGKILL');
    killed = true;
    await Promise.all(streams);

    expect(exit.signal).toBe('SIGKILL');
    expect(ledger.acknowledged - before).toBeGreaterThanOrEqual(WRITES_BEFORE_KILL);
    // Every answer before the kill was a success: the stream itself was sound.
    expect(
      [...stats.statuses.keys()].filter(
        (status) => status !== 0 && (status < 200 || status >= 300),
      ),
    ).toEqual([]);

    const second = await startServer(env);
    const stored = new Map<number, StoredChapter | undefined>();
    for (const writer of writers)
      for (const [id, chapter] of await storedChapters(second.http, writer))
        stored.set(id, chapter);
    expect(ledger.verify(stored)).toEqual([]);
    expect(await checkIntegrity(database.url)).toEqual(CLEAN);
    expect((await second.stop('SIGTERM')).code).toBe(0);
  });

  // Engine-independent (it opens its own SQLite file), so it runs in both projects rather than skip in one.
  it('runs SQLite in WAL mode with synchronous=FULL (decision 0002)', async () => {
    const sqlite = await createTestDatabase('sqlite');
    const db = createDb(sqlite.url);
    try {
      const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db);
      const sync = await sql<{ synchronous: number }>`pragma synchronous`.execute(db);
      expect(mode.rows[0]?.journal_mode).toBe('wal');
      expect(sync.rows[0]?.synchronous).toBe(2); // 2 = FULL: the WAL is synced on every commit
    } finally {
      await db.destroy();
      await sqlite.drop();
    }
  });
});
