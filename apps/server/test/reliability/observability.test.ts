import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { as, createBook, createTestApp, signup, type TestApp } from '../helpers/app.ts';
import { testEngine } from '../helpers/database.ts';
import { addChapter, follow, updateChapter } from '../helpers/live.ts';
import { closeAllSockets, connect, listen } from '../helpers/ws.ts';

let t: TestApp;
let base: string;
const METRICS_TOKEN = 'test-metrics-token-0123456789';
const scrape = () =>
  t.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN });
  base = await listen(t.app);
});
afterEach(() => closeAllSockets());
afterAll(() => t.close());

/** One sample of the Prometheus text format: the value of `name` with exactly these labels. */
async function sample(name: string, labels: Record<string, string>): Promise<number | undefined> {
  const text = (await scrape()).body;
  for (const line of text.split('\n')) {
    const match = /^([a-z_:]+)\{(.*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...match[2]!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (
      Object.keys(labels).length === Object.keys(found).length &&
      Object.entries(labels).every(([k, v]) => found[k] === v)
    ) {
      return Number(match[3]);
    }
  }
  return undefined;
}

describe(`metrics are for the operator's scraper only (${testEngine()})`, () => {
  it('answers only with the token, and not at all on a server that has none', async () => {
    expect((await scrape()).statusCode).toBe(200);
    const visitor = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(visitor.statusCode).toBe(401);
    expect(visitor.body).not.toContain('inkwell_');
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}x` },
    });
    expect(wrong.statusCode).toBe(401);
    const none = await createTestApp();
    try {
      const res = await none.app.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('inkwell_');
    } finally {
      await none.close();
    }
  });
});

describe(`health probes (${testEngine()})`, () => {
  it('answers liveness without asking anything, and readiness after asking the database', async () => {
    const live = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', checks: { database: 'ok' } });
  });

  it('answers 503 {code: unavailable} when the database does not answer', async () => {
    const broken = await createTestApp();
    // Closing the pool (or the SQLite handle) under the app is the local stand-in for an outage;
    // the PostgreSQL outage suite cuts a real connection.
    await broken.ctx.db.destroy();
    const ready = await broken.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({
      detail: 'Not ready: database unreachable',
      code: 'unavailable',
      checks: { database: 'down' },
    });
    expect((await broken.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    await broken.app.close().catch(() => undefined);
    await broken.database.drop();
  });
});

describe('request ids', () => {
  it('gives every answer an id, and keeps a well-formed one sent by a proxy', async () => {
    const fresh = await t.app.inject({ method: 'GET', url: '/api/genres' });
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await t.app.inject({
      method: 'GET',
      url: '/api/genres',
      headers: { 'x-request-id': 'edge-42.a:b' },
    });
    expect(kept.headers['x-request-id']).toBe('edge-42.a:b');
  });

  it.each([
    ['too long', 'x'.repeat(300)],
    ['with spaces and quotes', 'a b"c'],
    ['with a forged log line', 'id\\n{"level":60}'],
  ])('replaces an id that is %s', async (_what, id) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/genres',
      headers: { 'x-request-id': id },
    });
    expect(res.headers['x-request-id']).not.toBe(id);
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('metrics', () => {
  it('counts requests and their latency by route pattern, never by raw URL', async () => {
    const user = await signup(t.app);
    const books = await Promise.all(
      [1, 2, 3].map((n) => createBook(t.app, user, `Metered ${n}`, { published: true })),
    );
    for (const book of books)
      expect((await as(t.app).get(`/api/books/${book.id}`)).statusCode).toBe(200);
    await as(t.app).get('/api/books/999999');
    await as(t.app).get('/no/such/page/at/all');

    const route = { method: 'GET', route: '/api/books/:id' };
    expect(await sample('http_requests_total', { ...route, status_code: '200' })).toBe(3);
    expect(await sample('http_requests_total', { ...route, status_code: '404' })).toBe(1);
    expect(
      await sample('http_request_duration_seconds_count', { ...route, status_code: '200' }),
    ).toBe(3);
    expect(
      await sample('http_request_duration_seconds_bucket', {
        ...route,
        status_code: '200',
        le: '+Inf',
      }),
    ).toBe(3);
    const text = (await scrape()).body;
    expect(text).not.toContain(`/api/books/${books[0].id}"`);
    expect(text).not.toContain('/no/such/page');
    expect(text).toContain('process_resident_memory_bytes');
  });

  it("counts the answer cache's hits and misses for visitors' public reads", async () => {
    const user = await signup(t.app);
    const book = await createBook(t.app, user, 'Cached Once', { published: true });
    const before = {
      hit: (await sample('answer_cache_lookups_total', { result: 'hit' })) ?? 0,
      miss: (await sample('answer_cache_lookups_total', { result: 'miss' })) ?? 0,
    };
    for (let i = 0; i < 3; i++)
      expect((await t.app.inject({ method: 'GET', url: `/api/books/${book.id}` })).statusCode).toBe(
        200,
      );
    // The first read computes and keeps the answer; the next two are served from the cache.
    expect(await sample('answer_cache_lookups_total', { result: 'miss' })).toBe(before.miss + 1);
    expect(await sample('answer_cache_lookups_total', { result: 'hit' })).toBe(before.hit + 2);
  });

  it('counts open sockets by endpoint and the event-bus lag of delivered events', async () => {
    const [author, reader] = [await signup(t.app), await signup(t.app)];
    const stream = await connect(`${base}/ws?token=${reader.token}`);
    const chat = await connect(`${base}/chat/${author.username}?token=${reader.token}`);
    await chat.next();
    expect(await sample('websocket_connections_open', { endpoint: 'notifications' })).toBe(1);
    expect(await sample('websocket_connections_open', { endpoint: 'chat' })).toBe(1);

    await follow(as(t.app, reader), author.id);
    const book = await createBook(t.app, author, 'Lagging', { published: true });
    const chapter = await addChapter(as(t.app, author), book.id, 'On Time');
    await updateChapter(as(t.app, author), book.id, chapter.id, { is_published: true });
    await stream.next((m) => m.type === 'CHAPTER');
    expect(await sample('event_bus_lag_seconds_count', { event: 'chapter.published' })).toBe(1);

    await stream.close();
    await chat.close();
    await expect
      .poll(() => sample('websocket_connections_open', { endpoint: 'notifications' }))
      .toBe(0);
    await expect.poll(() => sample('websocket_connections_open', { endpoint: 'chat' })).toBe(0);
  });
});
