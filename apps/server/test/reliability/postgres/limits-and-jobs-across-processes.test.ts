import crypto from 'node:crypto';
import { CHAT_LIMITS } from '@inkwell/contract';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAME_BACK, FELL_BACK } from '../../../src/lib/store-fallback.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';
import { dropRedisKeys } from '../../helpers/live.ts';
import { closeAllSockets, closing, connect, type Frame } from '../../helpers/ws.ts';
import { freePort, startServer, stopAllServers, type ServerProcess } from '../helpers/process.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';
import { signupOver } from '../helpers/workload.ts';

/**
 * Issue 22 §2 and §3 with real processes (`apps/server/src/main.ts`) on one PostgreSQL database
 * and the local Redis: limits count across processes (failed logins, chat messages, sockets
 * per user, requests per address), fall back to each process's memory when Redis is away (and
 * say so), and the session purge runs once per interval whichever process's turn it is.
 */
const PURGE_INTERVAL_SECONDS = 1;
const SOCKETS_PER_USER = 3;
/** Feed reads per address and route (RATE_LIMIT_FEEDS). */
const FEED_READS = 4;
const prefix = `inkwell-limits-${crypto.randomBytes(5).toString('hex')}`;

let database: TestDatabase | undefined;
let proxy: TcpProxy | undefined;
let A: ServerProcess;
let B: ServerProcess;

const envFor = (redisUrl: string) => ({
  DATABASE_URL: database!.url,
  REDIS_URL: redisUrl,
  REDIS_PREFIX: prefix,
  // Each test's requests come from an address of their own (X-Forwarded-For from loopback).
  TRUST_PROXY: 'loopback',
  // The job runs are logged at debug.
  LOG_LEVEL: 'debug',
  SESSION_PURGE_INTERVAL_SECONDS: String(PURGE_INTERVAL_SECONDS),
  WS_MAX_SOCKETS_PER_USER: String(SOCKETS_PER_USER),
  RATE_LIMIT_FEEDS: `${FEED_READS}/minute`,
});

beforeAll(async () => {
  database = await createTestDatabase('postgres');
  // One after the other: each runs the migrations as it starts.
  A = await startServer(envFor('redis://127.0.0.1:6379'));
  B = await startServer(envFor('redis://127.0.0.1:6379'));
});
afterAll(async () => {
  await closeAllSockets();
  await stopAllServers();
  await proxy?.close();
  await dropRedisKeys(prefix);
  await database?.drop();
});

const unique = (name: string) => `${name}_${crypto.randomBytes(3).toString('hex')}`;
let addressCounter = 0;
const newAddress = () => `198.51.100.${++addressCounter}`;

async function login(server: ServerProcess, username: string, password: string, from: string) {
  const res = await fetch(`${server.http}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
    body: JSON.stringify({ username, password }),
  });
  await res.text();
  return { status: res.status, retryAfter: Number(res.headers.get('retry-after')) };
}

/** Reads a feed (of a book that need not exist: a 404 counts too) from an address. */
async function readFeed(server: ServerProcess, from: string) {
  const res = await fetch(`${server.http}/api/books/999999/feed.atom`, {
    headers: { 'x-forwarded-for': from },
  });
  const body = await res.text();
  return { status: res.status, retryAfter: Number(res.headers.get('retry-after')), body };
}

/** The statuses of feed reads from one address, on each server in turn. */
async function feedStatuses(servers: ServerProcess[], from: string) {
  const statuses = [];
  for (const server of servers) statuses.push((await readFeed(server, from)).status);
  return statuses;
}

/** The house 429 of a per-address limit. */
function expectFeedRefusal(refused: Awaited<ReturnType<typeof readFeed>>) {
  expect(refused.status).toBe(429);
  expect(refused.retryAfter).toBeGreaterThan(0);
  expect(JSON.parse(refused.body)).toEqual({
    detail: expect.stringMatching(/^Too many feed reads from your address\. Try again in \d+ s\.$/),
    code: 'rate_limited',
  });
}

/** The server's log lines (pino JSON) with this message. */
const logged = (server: ServerProcess, message: string) =>
  server.output
    .join('')
    .split('\n')
    .flatMap((line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string } & Record<string, unknown>;
        return entry.msg === message ? [entry] : [];
      } catch {
        return [];
      }
    });

describe('limits across processes', () => {
  it('refuses the 6th failed login on either process after 5 spread over both, per username and per address', async () => {
    const victim = await signupOver(A.http, unique('victim'));
    const from = newAddress();
    const statuses = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await login([A, B][i % 2]!, victim.username, 'wrong password', from)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);

    for (const server of [A, B]) {
      const refused = await login(server, victim.username, 'wrong password', from);
      expect(refused.status).toBe(429);
      expect(refused.retryAfter).toBeGreaterThan(0);
    }
    // The username waits from any address, even with the right password...
    expect((await login(B, victim.username, 'correct horse battery', newAddress())).status).toBe(
      429,
    );
    // ...and the address waits for any username.
    const bystander = await signupOver(B.http, unique('bystander'));
    expect((await login(A, bystander.username, 'correct horse battery', from)).status).toBe(429);
  });

  it('shares a user’s chat message rate between the processes', async () => {
    const author = await signupOver(A.http, unique('host'));
    const talker = await signupOver(A.http, unique('talker'));
    const room = (server: ServerProcess) =>
      connect(`${server.ws}/chat/${author.username}?token=${talker.token}`);
    const onA = await room(A);
    await onA.next((m) => m.user === 'server');
    const onB = await room(B);
    await onB.next((m) => m.user === 'server');

    // Twice the burst on A and half a burst on B, at once: counted apart, A would let a burst of
    // lines through and B half of one; counted together, one burst (and what refills meanwhile).
    const burst = CHAT_LIMITS.burst;
    for (let i = 0; i < 2 * burst; i++) onA.send(`<p>A${i}</p>`);
    for (let i = 0; i < burst / 2; i++) onB.send(`<p>B${i}</p>`);
    const isLine = (m: Frame) => m.user === talker.username;
    const isError = (m: Frame) => m.type === 'error';
    const lines = await onA.drain(1_500, isLine);
    expect(lines.length).toBeGreaterThanOrEqual(burst);
    expect(lines.length).toBeLessThanOrEqual(burst + 2);
    // Every other frame was refused to its sender, B's included.
    const refusedOnA = (await onA.drain(0, isError)).length;
    const refusedOnB = (await onB.drain(0, isError)).length;
    expect(lines.length + refusedOnA + refusedOnB).toBe(2 * burst + burst / 2);
  });

  it('counts a per-address request limit across the processes', async () => {
    const from = newAddress();
    // Alternating between the two processes: counted apart, each would allow FEED_READS.
    const servers = Array.from({ length: FEED_READS }, (_, i) => [A, B][i % 2]!);
    expect(await feedStatuses(servers, from)).toEqual(Array(FEED_READS).fill(404));
    for (const server of [A, B]) expectFeedRefusal(await readFeed(server, from));
    // Another address is not affected.
    expect((await readFeed(B, newAddress())).status).toBe(404);
  });

  it('caps a user’s sockets across the processes', async () => {
    const user = await signupOver(B.http, unique('sockets'));
    const open = [];
    for (const server of [A, B, A]) open.push(await connect(`${server.ws}/ws?token=${user.token}`));
    for (const server of [A, B]) {
      const refused = await connect(`${server.ws}/ws?token=${user.token}`);
      expect((await closing(refused)).code).toBe(4429);
    }
    await open[1]!.close();
    const again = await connect(`${A.ws}/ws?token=${user.token}`);
    expect(await again.drain(300)).toEqual([]);
    expect(again.ws.readyState).toBe(again.ws.OPEN);
  });
});

describe('the session purge', () => {
  it(`runs once per ${PURGE_INTERVAL_SECONDS} s across both processes, and purges`, async () => {
    const user = await signupOver(A.http, unique('expiring'));
    const client = new pg.Client({ connectionString: database!.url });
    await client.connect();
    try {
      const windowStart = Date.now();
      await client.query(
        `update sessions set expires_at = '2001-01-01T00:00:00.000Z' where user_id = $1`,
        [user.id],
      );
      const sessionsLeft = async () =>
        (await client.query('select id from sessions where user_id = $1', [user.id])).rowCount;
      await expect.poll(sessionsLeft, { timeout: 5_000, interval: 100 }).toBe(0);

      await new Promise((resolve) => setTimeout(resolve, 5_000 - (Date.now() - windowStart)));
      const windowEnd = Date.now();
      const starts = [A, B]
        .flatMap((server) => logged(server, 'periodic job ran'))
        .filter((entry) => entry.job === 'session-purge')
        .map((entry) => Date.parse(entry.startedAt as string))
        .filter((at) => at >= windowStart && at <= windowEnd)
        .sort((a, b) => a - b);
      // One run per second of the window (counted per process, it would be twice as many).
      expect(starts.length).toBeGreaterThanOrEqual(4);
      expect(starts.length).toBeLessThanOrEqual(6);
      const gaps = starts.slice(1).map((at, i) => at - starts[i]!);
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(PURGE_INTERVAL_SECONDS * 1000);
      const { rows } = await client.query(
        `select runs from job_leases where name = 'session-purge'`,
      );
      const allRuns = [A, B].flatMap((server) =>
        logged(server, 'periodic job ran').filter((entry) => entry.job === 'session-purge'),
      );
      expect(rows[0].runs).toBeGreaterThanOrEqual(allRuns.length);
    } finally {
      await client.end();
    }
  });
});

describe('limits when Redis is away', () => {
  it('fall back to each process’s memory, still refuse past a per-address limit and the 6th failed login, and say so', async () => {
    // C never reaches Redis (nothing listens on its port); D loses it after it started.
    proxy = await startTcpProxy({ host: '127.0.0.1', port: 6379 });
    const [C, D] = await Promise.all([
      startServer(envFor(`redis://127.0.0.1:${await freePort()}`)),
      startServer(envFor(`redis://127.0.0.1:${proxy.port}`)),
    ]);
    const victim = await signupOver(A.http, unique('offline'));
    // D counts in Redis while it can.
    expect((await login(D, victim.username, 'wrong password', newAddress())).status).toBe(401);
    expect(logged(D, FELL_BACK)).toEqual([]);
    await proxy.cut();

    // The per-address request limits are the first to find Redis gone: they count in memory
    // (not skipped), on each process alone, and the fall-back is logged.
    const from = newAddress();
    for (const server of [C, D]) {
      expect(await feedStatuses(Array(FEED_READS).fill(server), from)).toEqual(
        Array(FEED_READS).fill(404),
      );
      expectFeedRefusal(await readFeed(server, from));
      await expect.poll(() => logged(server, FELL_BACK).length).toBe(1);
    }

    const sixFailures = async (server: ServerProcess) => {
      const from = newAddress();
      const statuses = [];
      for (let i = 0; i < 6; i++)
        statuses.push((await login(server, victim.username, 'wrong password', from)).status);
      return statuses;
    };
    expect(await sixFailures(C)).toEqual([401, 401, 401, 401, 401, 429]);
    // D kept the failure it saw before in its memory too: its outage starts from it.
    expect(await sixFailures(D)).toEqual([401, 401, 401, 401, 429, 429]);
    for (const server of [C, D]) expect(logged(server, FELL_BACK)).toHaveLength(1);

    await proxy.restore();
    await expect
      .poll(() => logged(D, CAME_BACK).length, { timeout: 15_000, interval: 200 })
      .toBe(1);
    await Promise.all([C.stop(), D.stop()]);
  });
});
