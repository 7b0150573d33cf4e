import crypto from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';
import { CLEAN, checkIntegrity } from '../helpers/integrity.ts';
import { Ledger, type StoredChapter } from '../helpers/ledger.ts';
import { startServer, stopAllServers } from '../helpers/process.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';
import {
  call,
  newStats,
  setUpBook,
  signupOver,
  storedChapters,
  tally,
  writeUntil,
  type WriteStats,
  type Writer,
} from '../helpers/workload.ts';

/**
 * PostgreSQL goes away under load and comes back. The shared PostgreSQL server is not touched:
 * the server process reaches it through a TCP proxy that the test cuts and restores.
 */
let database: TestDatabase | undefined;
let proxy: TcpProxy | undefined;
afterAll(async () => {
  await stopAllServers();
  await proxy?.close();
  await database?.drop();
});

/** The server's own account of its failures (error-level log lines), for a failing assertion. */
const serverErrors = (output: string[]) =>
  output
    .join('')
    .split('\n')
    .filter((line) => line.includes('"level":50'))
    .slice(0, 3)
    .join('\n');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const statusesOf = (stats: WriteStats) => [...stats.statuses.keys()].sort();

describe('a PostgreSQL outage under load', () => {
  it('answers clear 503s while the database is away, reconnects, and loses or corrupts nothing', async () => {
    database = await createTestDatabase('postgres');
    const direct = new URL(database.url);
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const proxied = new URL(database.url);
    proxied.port = String(proxy.port);
    const server = await startServer({ DATABASE_URL: proxied.toString() });

    const ledger = new Ledger();
    const writers: Writer[] = [];
    const suffix = crypto.randomBytes(3).toString('hex');
    for (let i = 0; i < 3; i++) {
      const user = await signupOver(server.http, `pg_outage_${i}_${suffix}`);
      writers.push(await setUpBook(server.http, user.token, `Outage Book ${i}`, 3, ledger));
    }
    const bookId = writers[0]!.bookId;

    const phases = { before: newStats(), down: newStats(), after: newStats() };
    let stats = phases.before;
    let stopped = false;
    const streams = writers.map((writer, i) =>
      writeUntil(
        server.http,
        writer,
        ledger,
        () => stats,
        () => stopped,
        { name: `w${i}`, pauseMs: 10 },
      ),
    );
    const readers = [0, 1, 2].map(async (i) => {
      const token = writers[i]!.token;
      const read = async (url: string, auth?: string) => {
        const answer = await call(server.http, 'GET', url, { token: auth });
        // Counted in the phase it was answered in.
        tally(stats, answer);
      };
      while (!stopped) {
        await read(`/api/books/${bookId}`);
        await read('/api/books?limit=10&offset=0');
        await read('/api/my/books', token);
        await sleep(10);
      }
    });

    await sleep(1_000);
    stats = phases.down;
    await proxy.cut();
    await sleep(2_500);
    const notReady = await call(server.http, 'GET', '/readyz');
    expect(notReady.status, server.output.join('')).toBe(503);
    expect(notReady.body).toMatchObject({ code: 'unavailable', checks: { database: 'down' } });
    expect((await call(server.http, 'GET', '/healthz')).status).toBe(200);

    await proxy.restore();
    await expect
      .poll(async () => (await call(server.http, 'GET', '/readyz')).status, {
        timeout: 15_000,
        interval: 100,
      })
      .toBe(200);
    // Requests sent just before the database came back may still answer 503; count from here on.
    await sleep(300);
    stats = phases.after;
    await sleep(1_500);
    stopped = true;
    await Promise.all([...streams, ...readers]);

    // Before and after the outage everything succeeds; during it, only clear 503s (never a 500).
    expect(
      statusesOf(phases.before).every((s) => s >= 200 && s < 300),
      JSON.stringify(phases.before.refusals.slice(0, 3)),
    ).toBe(true);
    expect(
      statusesOf(phases.after).every((s) => s >= 200 && s < 300),
      JSON.stringify(phases.after.refusals.slice(0, 3)),
    ).toBe(true);
    expect(phases.after.requests).toBeGreaterThan(20);
    const downStatuses = statusesOf(phases.down);
    expect(downStatuses).toContain(503);
    expect(
      downStatuses.every((s) => s === 503 || (s >= 200 && s < 300)),
      JSON.stringify(phases.down.refusals.slice(0, 3)) + serverErrors(server.output),
    ).toBe(true);
    for (const refusal of phases.down.refusals) {
      expect(refusal.body).toEqual({ detail: expect.any(String), code: 'unavailable' });
    }

    const stored = new Map<number, StoredChapter | undefined>();
    for (const writer of writers)
      for (const [id, chapter] of await storedChapters(server.http, writer))
        stored.set(id, chapter);
    expect(ledger.verify(stored)).toEqual([]);
    expect(await checkIntegrity(database.url)).toEqual(CLEAN);
    expect((await server.stop()).code).toBe(0);
  });
});
