import crypto from 'node:crypto';
import { WS_CLOSE } from '@inkwell/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { SESSION_ENDED_REASON } from '../../../src/realtime/session-sockets.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';
import { closeAllSockets, closing, connect, type TestSocket } from '../../helpers/ws.ts';
import { startServer, stopAllServers, type ServerProcess } from '../helpers/process.ts';
import { startRedis, type ThrowawayRedis } from '../helpers/redis-server.ts';
import { call, signupOver, type Answer } from '../helpers/workload.ts';

/**
 * Two real server processes on one PostgreSQL database and a Redis of the test's own, which the
 * test kills and starts again: HTTP keeps working throughout, live events resume afterwards.
 */
let database: TestDatabase | undefined;
let redis: ThrowawayRedis | undefined;
afterAll(async () => {
  await closeAllSockets();
  await stopAllServers();
  await redis?.kill();
  await database?.drop();
});

const expectOk = (answer: Answer, what: string) => {
  expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBeGreaterThanOrEqual(200);
  expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
  return answer.body;
};

async function publishChapter(
  server: ServerProcess,
  token: string,
  bookId: number,
  title: string,
): Promise<number> {
  const chapter = expectOk(
    await call(server.http, 'POST', `/api/books/${bookId}/chapters`, { token, body: { title } }),
    'add chapter',
  );
  expectOk(
    await call(server.http, 'PUT', `/api/books/${bookId}/chapters/${chapter.id}`, {
      token,
      body: { is_published: true },
    }),
    'publish chapter',
  );
  return chapter.id;
}

async function readiness(server: ServerProcess) {
  return call(server.http, 'GET', '/readyz', { timeoutMs: 5_000 });
}

describe('a Redis outage under two server processes', () => {
  it('keeps serving requests, reports not ready, and live events resume when Redis returns', async () => {
    database = await createTestDatabase('postgres');
    redis = await startRedis();
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      REDIS_PREFIX: `inkwell-rel-${crypto.randomBytes(5).toString('hex')}`,
    };
    // One after the other: each runs the migrations as it starts.
    const A = await startServer(env);
    const B = await startServer(env);

    const suffix = crypto.randomBytes(3).toString('hex');
    const author = await signupOver(B.http, `outage_author_${suffix}`);
    const reader = await signupOver(A.http, `outage_reader_${suffix}`);
    expectOk(
      await call(A.http, 'POST', '/api/follows', {
        token: reader.token,
        body: { author_id: author.id },
      }),
      'follow',
    );
    const book = expectOk(
      await call(B.http, 'POST', '/api/books', { token: author.token, body: { title: 'Outage' } }),
      'book',
    );
    expectOk(
      await call(B.http, 'PUT', `/api/books/${book.id}`, {
        token: author.token,
        body: { title: 'Outage', summary: '', is_published: true },
      }),
      'publish book',
    );
    const follower = await connect(`${A.ws}/ws?token=${reader.token}`);
    const isChapter = (id: number) => (m: { type?: string; chapter_id?: number }) =>
      m.type === 'CHAPTER' && m.chapter_id === id;

    const before = await publishChapter(B, author.token, book.id, 'Before');
    await follower.next(isChapter(before));

    // Sockets of two sessions that will end while Redis is away: one on the process that ends
    // it (its own event cannot reach it either: it goes through Redis), one on the other.
    const login = async () =>
      expectOk(
        await call(A.http, 'POST', '/token', {
          body: { username: reader.username, password: 'correct horse battery' },
        }),
        'login',
      ).access_token as string;
    const [endedOnB, endedOnA] = [await login(), await login()];
    const doomed: TestSocket[] = [
      await connect(`${A.ws}/ws?token=${endedOnB}`),
      await connect(`${B.ws}/ws?token=${endedOnB}`),
      await connect(`${A.ws}/ws?token=${endedOnA}`),
    ];

    await redis.kill();
    expectOk(await call(B.http, 'DELETE', '/token', { token: endedOnB }), 'logout on B');
    expectOk(await call(A.http, 'DELETE', '/token', { token: endedOnA }), 'logout on A');
    // Every kind of request keeps working on both processes, and quickly.
    const started = Date.now();
    let draftId = 0;
    for (let i = 0; i < 5; i++) {
      for (const server of [A, B]) {
        expectOk(await call(server.http, 'GET', '/api/books'), 'list books');
        expectOk(await call(server.http, 'GET', `/api/books/${book.id}/chapters`), 'list chapters');
        expectOk(
          await call(server.http, 'GET', '/api/my/notifications', { token: reader.token }),
          'inbox',
        );
      }
      draftId = await publishChapter(B, author.token, book.id, `During ${i}`);
      expectOk(
        await call(A.http, 'PUT', `/api/books/${book.id}/chapters/${draftId}`, {
          token: author.token,
          body: { content: `<p>saved ${i}</p>` },
        }),
        'autosave',
      );
    }
    expect(Date.now() - started).toBeLessThan(10_000);
    // The inbox is written before the event goes to Redis: nothing published meanwhile is lost there.
    const inbox = expectOk(
      await call(A.http, 'GET', '/api/my/notifications?limit=50', { token: reader.token }),
      'inbox',
    );
    expect(inbox.notifications.map((n: { chapter_id: number }) => n.chapter_id)).toContain(draftId);
    for (const server of [A, B]) {
      const ready = await readiness(server);
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({
        code: 'unavailable',
        checks: { database: 'ok', redis: 'down' },
      });
      expect((await call(server.http, 'GET', '/healthz')).status).toBe(200);
    }

    await redis.restart();
    for (const server of [A, B]) {
      await expect
        .poll(async () => (await readiness(server)).status, { timeout: 15_000, interval: 200 })
        .toBe(200);
    }
    // The logouts' events were lost; back on the bus, each process asked the database.
    for (const socket of doomed) {
      expect(await closing(socket)).toEqual({
        code: WS_CLOSE.unauthorized,
        reason: SESSION_ENDED_REASON,
      });
    }
    // Pub/sub keeps nothing for absent subscribers: publish until one crosses, which it must soon.
    let received = false;
    for (let i = 0; i < 20 && !received; i++) {
      const id = await publishChapter(B, author.token, book.id, `After ${i}`);
      received = await follower.next(isChapter(id), 500).then(
        () => true,
        () => false,
      );
    }
    expect(received).toBe(true);
  });
});
