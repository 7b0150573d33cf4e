import crypto from 'node:crypto';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/kysely.ts';
import { AnswerCache } from '../../src/lib/answer-cache.ts';
import { publicReads } from '../../src/plugins/read-cache.ts';
import { createBook, createTestApp, signup, type TestApp, type TestUser } from '../helpers/app.ts';
import { createChapter, type TestChapter } from '../helpers/chapters.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { dropRedisKeys } from '../helpers/live.ts';
import type { EventBus } from '../../src/realtime/events.ts';
import { listen } from '../helpers/ws.ts';

// The answer cache (plugins/read-cache.ts) sits in front of Fastify, so it is only reached
// through a real port: these tests speak HTTP to one, as browsers do. To tell a kept answer
// from a fresh one, they change a row behind the app's back (straight in the database), which
// only a fresh answer can show.

const httpBase = (app: FastifyInstance) => listen(app).then((ws) => ws.replace(/^ws:/, 'http:'));

async function get(base: string, url: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${url}`, { headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const titleOf = async (base: string, url: string, headers?: Record<string, string>) =>
  JSON.parse((await get(base, url, headers)).text).title as string;

/** A title change no request announced (as a direct edit of the database would be). */
const retitleBehindTheAppsBack = (db: Db, chapterId: number, title: string) =>
  db.updateTable('chapters').set({ title }).where('id', '=', chapterId).execute();

async function publishedChapter(t: TestApp, author: TestUser, title: string) {
  const book = await createBook(t.app, author, `Book of ${title}`, { published: true });
  const chapter = await createChapter(
    t.app,
    author,
    book.id,
    { title, content: `<p>${title}</p>` },
    { published: true },
  );
  // Indexed now, not a second later, so that a search finds the book at once.
  await t.ctx.searchIndexer.flush();
  return { book, chapter };
}

describe('the answer cache', () => {
  let t: TestApp;
  let base: string;
  let author: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    base = await httpBase(t.app);
    author = await signup(t.app);
  });
  afterAll(() => t.close());

  it("tells every cache not to keep a visitor's 404 (a draft may be published a moment later)", async () => {
    const draft = await createBook(t.app, author, 'Not yet');
    const missing = await get(base, `/api/books/${draft.id}`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control')).toBe('no-store');
  });

  it('drops kept search answers when the index changes, and keeps every other kept answer', async () => {
    const { book, chapter } = await publishedChapter(t, author, 'Indexed Apart');
    const cache = t.app.answerCache!;
    const reads = [`/api/books/${book.id}`, `/api/chapters/${chapter.id}`];
    const search = `/api/books/search?q=${encodeURIComponent('Indexed Apart')}`;
    for (const url of [...reads, search]) await get(base, url);
    const hits = cache.hits;
    await t.ctx.events.publish({ type: 'search.indexed' });
    for (const url of reads) await get(base, url);
    expect(cache.hits).toBe(hits + reads.length);
    await get(base, search);
    expect(cache.hits).toBe(hits + reads.length);
  });

  it("answers a visitor's repeated read from memory, with the headers of a fresh answer", async () => {
    const { chapter } = await publishedChapter(t, author, 'Kept');
    const url = `/api/chapters/${chapter.id}`;
    const fresh = await get(base, url);
    expect(fresh.status).toBe(200);
    await retitleBehindTheAppsBack(t.ctx.db, chapter.id, 'Changed unannounced');

    const kept = await get(base, url);
    expect(kept.status).toBe(200);
    expect(kept.text).toBe(fresh.text);
    for (const name of [
      'content-type',
      'content-security-policy',
      'x-content-type-options',
      'cache-control',
      'etag',
      'vary',
    ]) {
      expect(kept.headers.get(name), name).toBe(fresh.headers.get(name));
    }
    expect(kept.headers.get('x-request-id')).toMatch(/\S/);
    expect(kept.headers.get('x-request-id')).not.toBe(fresh.headers.get('x-request-id'));
    expect(Number(kept.headers.get('content-length'))).toBe(Buffer.byteLength(kept.text));
  });

  it('never serves a signed-in reader from it', async () => {
    const { chapter } = await publishedChapter(t, author, 'Personal');
    const url = `/api/chapters/${chapter.id}`;
    await get(base, url);
    await retitleBehindTheAppsBack(t.ctx.db, chapter.id, 'Seen by the signed-in');
    expect(await titleOf(base, url, { authorization: `Bearer ${author.token}` })).toBe(
      'Seen by the signed-in',
    );
    expect(await titleOf(base, url, { cookie: `fastapi_token=${author.token}` })).toBe(
      'Seen by the signed-in',
    );
    expect(await titleOf(base, url)).toBe('Personal');
  });

  it('drops every kept answer when a write succeeds, so a draft is never served', async () => {
    const { book, chapter } = await publishedChapter(t, author, 'Soon a draft');
    const url = `/api/chapters/${chapter.id}`;
    const list = `/api/books/${book.id}/chapters`;
    expect((await get(base, url)).status).toBe(200);
    expect(JSON.parse((await get(base, list)).text).chapters).toHaveLength(1);

    const unpublished = await fetch(`${base}/api/books/${book.id}/chapters/${chapter.id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${author.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ is_published: false }),
    });
    expect(unpublished.status).toBe(200);
    expect((await get(base, url)).status).toBe(404);
    expect(JSON.parse((await get(base, list)).text).chapters).toHaveLength(0);
  });

  it("keeps its answers through a draft's autosave, and drops them on a published chapter's", async () => {
    const { book, chapter } = await publishedChapter(t, author, 'Public');
    const draft = await createChapter(t.app, author, book.id, { title: 'Draft' });
    const url = `/api/chapters/${chapter.id}`;
    const save = (chapterId: number, content: string) =>
      fetch(`${base}/api/books/${book.id}/chapters/${chapterId}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${author.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content }),
      });
    await get(base, url);
    await retitleBehindTheAppsBack(t.ctx.db, chapter.id, 'Changed unannounced');

    expect((await save(draft.id, '<p>a draft nobody else sees</p>')).status).toBe(200);
    expect(await titleOf(base, url)).toBe('Public');

    expect((await save(chapter.id, '<p>a correction readers see</p>')).status).toBe(200);
    const fresh = JSON.parse((await get(base, url)).text);
    expect(fresh).toMatchObject({
      title: 'Changed unannounced',
      content: '<p>a correction readers see</p>',
    });
  });

  it('keeps its answers through a write that was refused (4xx)', async () => {
    const { chapter } = await publishedChapter(t, author, 'Unmoved');
    const url = `/api/chapters/${chapter.id}`;
    await get(base, url);
    await retitleBehindTheAppsBack(t.ctx.db, chapter.id, 'Changed unannounced');
    const refused = await fetch(`${base}/api/books/999999/chapters/${chapter.id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${author.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'x' }),
    });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(await titleOf(base, url)).toBe('Unmoved');
  });

  it('files answers by the parameters the route reads, so unknown ones neither miss nor fill it', async () => {
    const { chapter } = await publishedChapter(t, author, 'Filed');
    const url = `/api/chapters/${chapter.id}`;
    await get(base, url);
    await retitleBehindTheAppsBack(t.ctx.db, chapter.id, 'Changed unannounced');
    for (const variant of [`${url}?x=1`, `${url}?x=2&y=3`, `${url}/`])
      expect(await titleOf(base, variant), variant).toBe('Filed');
    expect(t.app.answerCache!.size).toBe(1);

    // Parameters the route reads are part of the key, in any order.
    const list = `/api/books?limit=5&offset=0`;
    const first = (await get(base, list)).text;
    expect((await get(base, `/api/books?offset=0&junk=1&limit=5`)).text).toBe(first);
    expect(t.app.answerCache!.size).toBe(2);
    await get(base, `/api/books?limit=6`);
    expect(t.app.answerCache!.size).toBe(3);
  });

  it('answers reads that leave their parameters to defaults, or whose query is rewritten, from memory', async () => {
    const { book } = await publishedChapter(t, author, 'Defaults');
    const urls = [
      '/api/recent/books',
      `/api/books/search?q=${encodeURIComponent('Book of Defaults')}`,
    ];
    const titles = async (url: string) =>
      JSON.stringify(JSON.parse((await get(base, url)).text)).includes('Book of Defaults');
    for (const url of urls) expect(await titles(url), url).toBe(true);
    await t.ctx.db
      .updateTable('books')
      .set({ title: 'Retitled unannounced' })
      .where('id', '=', book.id)
      .execute();
    for (const url of urls) expect(await titles(url), url).toBe(true);
  });

  it('keeps its answers through private writes: a sign-in, a progress save, a read, a follow', async () => {
    const { book, chapter } = await publishedChapter(t, author, 'Private writes');
    const reader = await signup(t.app);
    const url = `/api/chapters/${chapter.id}`;
    await get(base, url);
    await retitleBehindTheAppsBack(t.ctx.db, chapter.id, 'Changed unannounced');
    const send = (method: string, path: string, body?: object) =>
      fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${reader.token}`,
          ...(body && { 'content-type': 'application/json' }),
        },
        ...(body && { body: JSON.stringify(body) }),
      });
    const signIn = await fetch(`${base}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: reader.username, password: reader.password }),
    });
    expect(signIn.status).toBe(200);
    expect(
      (
        await send('PUT', `/api/my/progress/${book.id}`, {
          chapter_id: chapter.id,
          paragraph: 1,
          offset: 0,
        })
      ).status,
    ).toBe(200);
    expect(
      (await send('POST', `/api/books/${book.id}/chapters/${chapter.id}/history`)).status,
    ).toBeLessThan(300);
    expect((await send('POST', '/api/follows', { author_id: author.id })).status).toBeLessThan(300);
    expect(await titleOf(base, url)).toBe('Private writes');
  });

  it("drops its answers when an author's public profile changes", async () => {
    const { book } = await publishedChapter(t, author, 'Renamed author');
    const url = `/api/books/${book.id}`;
    const before = JSON.parse((await get(base, url)).text);
    const renamed = await fetch(`${base}/api/authors/${author.id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${author.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ first_name: `${before.author_first_name}x` }),
    });
    expect(renamed.status).toBe(200);
    expect(JSON.parse((await get(base, url)).text).author_first_name).toBe(
      `${before.author_first_name}x`,
    );
  });

  it('keeps the home page picks', async () => {
    const url = '/api/home/authors';
    expect((await get(base, url)).status).toBe(200);
    const hits = t.app.answerCache!.hits;
    // The second read is answered from memory: a hit, not a recomputation kept again.
    expect((await get(base, url)).status).toBe(200);
    expect(t.app.answerCache!.hits).toBe(hits + 1);
  });

  it('answers If-None-Match with 304 and gzips for clients that accept it', async () => {
    const long = `<p>${'a long paragraph of a chapter '.repeat(100)}</p>`;
    const book = await createBook(t.app, author, 'Long', { published: true });
    const chapter = await createChapter(
      t.app,
      author,
      book.id,
      { title: 'Long', content: long },
      { published: true },
    );
    const url = `/api/chapters/${chapter.id}`;
    const fresh = await get(base, url);
    await retitleBehindTheAppsBack(t.ctx.db, chapter.id, 'Changed unannounced');

    const revalidated = await get(base, url, { 'if-none-match': fresh.headers.get('etag')! });
    expect(revalidated.status).toBe(304);
    expect(revalidated.text).toBe('');
    // A cache holding several versions lists them all (RFC 9110): any one that matches is 304.
    const listed = await get(base, url, {
      'if-none-match': `W/"an-older-one", ${fresh.headers.get('etag')!}`,
    });
    expect(listed.status).toBe(304);

    // fetch would decode gzip itself; a raw request shows what was sent.
    const raw = await new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
      const request = new URL(`${base}${url}`);
      void import('node:http').then(({ get: httpGet }) =>
        httpGet(request, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
          const parts: Buffer[] = [];
          res.on('data', (part: Buffer) => parts.push(part));
          res.on('end', () =>
            resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(parts) }),
          );
        }).on('error', reject),
      );
    });
    expect(raw.encoding).toBe('gzip');
    expect(zlib.gunzipSync(raw.body).toString()).toBe(fresh.text);
  });

  it('compresses a kept answer once, as it is kept, and inflates it for a client without gzip', async () => {
    const long = `<p>${'another long paragraph of a chapter '.repeat(100)}</p>`;
    const book = await createBook(t.app, author, 'Compressed Once', { published: true });
    const chapter = await createChapter(
      t.app,
      author,
      book.id,
      { title: 'Once', content: long },
      { published: true },
    );
    const url = `/api/chapters/${chapter.id}`;
    const ask = () => t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    const first = await ask();
    expect(first.headers['content-encoding']).toBe('gzip');
    const kept = t.app.answerCache!.get(url);
    expect(kept?.compressed, 'the miss kept its answer compressed').toBe(true);
    expect(first.rawPayload.equals(kept!.stored)).toBe(true);
    const second = await ask();
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(JSON.parse(zlib.gunzipSync(second.rawPayload).toString())).toMatchObject({
      id: chapter.id,
      content: long,
    });
    // Kept gzipped only: a client without gzip is answered from it too, inflated.
    const hits = t.app.answerCache!.hits;
    const plain = await t.app.inject({ method: 'GET', url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toMatchObject({ id: chapter.id, content: long });
    expect(t.app.answerCache!.hits).toBe(hits + 1);
  });

  it("gives a write's answer none of a public read's headers, even sent with If-None-Match", async () => {
    const book = await createBook(t.app, author, 'Reordered');
    const first = await createChapter(t.app, author, book.id, { title: 'One' });
    const second = await createChapter(t.app, author, book.id, { title: 'Two' });
    const reorder = (headers: Record<string, string> = {}) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/books/${book.id}/chapters`,
        headers: { authorization: `Bearer ${author.token}`, ...headers },
        payload: {
          chapters: [
            { id: second.id, chapter_order: 1 },
            { id: first.id, chapter_order: 2 },
          ],
        },
      });
    const done = await reorder();
    expect(done.statusCode).toBe(200);
    expect(done.headers.etag).toBeUndefined();
    expect(done.headers['cache-control']).toBe('no-store');
    // Saved either way: an answer of 304 would tell the author nothing of it.
    const again = await reorder({ 'if-none-match': '*' });
    expect(again.statusCode).toBe(200);
    expect(again.json().chapters).toHaveLength(2);
  });

  it('refuses to start with a write declared a public read', async () => {
    const app = Fastify();
    await app.register(publicReads, { cache: new AnswerCache({ maxBytes: 0, maxAgeMs: 0 }) });
    expect(() =>
      app.post('/api/things', { config: { publicRead: true } }, async () => ({ ok: true })),
    ).toThrow('POST /api/things cannot be a public read');
    app.get('/api/things', { config: { publicRead: true } }, async () => ({ ok: true }));
    await app.ready();
    await app.close();
  });

  it('uses an answer no longer than its maximum age', async () => {
    const short = await createTestApp({ READ_CACHE_MAX_AGE_SECONDS: '0.05' });
    try {
      const shortBase = await httpBase(short.app);
      const writer = await signup(short.app);
      const { chapter } = await publishedChapter(short, writer, 'Aging');
      const url = `/api/chapters/${chapter.id}`;
      await get(shortBase, url);
      await retitleBehindTheAppsBack(short.ctx.db, chapter.id, 'Seen after the maximum age');
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(await titleOf(shortBase, url)).toBe('Seen after the maximum age');
    } finally {
      await short.close();
    }
  });

  it('keeps nothing when switched off', async () => {
    const off = await createTestApp({ READ_CACHE: 'off' });
    try {
      const offBase = await httpBase(off.app);
      const writer = await signup(off.app);
      const { chapter } = await publishedChapter(off, writer, 'Never kept');
      const url = `/api/chapters/${chapter.id}`;
      await get(offBase, url);
      await retitleBehindTheAppsBack(off.ctx.db, chapter.id, 'Always fresh');
      expect(await titleOf(offBase, url)).toBe('Always fresh');
      expect(off.app.answerCache).toBeNull();
    } finally {
      await off.close();
    }
  });
});

describe('the answer cache across processes', () => {
  // Two apps on one database and one Redis, as two processes behind a load balancer would be.
  let database: TestDatabase;
  const prefix = `inkwell-test-${crypto.randomBytes(6).toString('hex')}`;
  const apps: Array<TestApp & { base: string }> = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    for (let i = 0; i < 2; i++) {
      const env = {
        REDIS_URL: 'redis://127.0.0.1:6379',
        REDIS_PREFIX: prefix,
        // Long, so that only the announcement can explain a fresh answer.
        READ_CACHE_MAX_AGE_SECONDS: '60',
      };
      const t = await createTestApp(env, { database });
      apps.push({ ...t, base: await httpBase(t.app) });
    }
  });
  afterAll(async () => {
    for (const t of apps) await t.close();
    await dropRedisKeys(prefix);
    await database?.drop();
  });

  it("drops the other process's kept answers after a write on this one", async () => {
    const [writerSide, readerSide] = apps as [(typeof apps)[0], (typeof apps)[0]];
    const author = await signup(writerSide.app);
    const book = await createBook(writerSide.app, author, 'Shared', { published: true });
    const chapter: TestChapter = await createChapter(
      writerSide.app,
      author,
      book.id,
      { title: 'Before', content: '<p>text</p>' },
      { published: true },
    );
    // The set-up's own writes were announced too; Redis delivers in order, so once a marker sent
    // after them arrives, none of them can empty the reader's cache later.
    await announcementsSettled(writerSide.ctx.events, readerSide.ctx.events);
    const url = `/api/chapters/${chapter.id}`;
    expect(await titleOf(readerSide.base, url)).toBe('Before');
    await retitleBehindTheAppsBack(readerSide.ctx.db, chapter.id, 'Unannounced');
    expect(await titleOf(readerSide.base, url)).toBe('Before');

    const renamed = await fetch(`${writerSide.base}/api/books/${book.id}/chapters/${chapter.id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${author.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'After' }),
    });
    expect(renamed.status).toBe(200);
    // The announcement crosses Redis: wait for it, boundedly.
    const deadline = Date.now() + 5_000;
    let seen = await titleOf(readerSide.base, url);
    while (seen !== 'After' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      seen = await titleOf(readerSide.base, url);
    }
    expect(seen).toBe('After');
  });
});

/** Resolves once `to` has received everything `from` had announced before the call. */
function announcementsSettled(from: EventBus, to: EventBus): Promise<void> {
  const room = `marker-${crypto.randomBytes(4).toString('hex')}`;
  return new Promise((resolve) => {
    const stop = to.subscribe((event) => {
      if (event.type === 'chat.message' && event.room === room) {
        stop();
        resolve();
      }
    });
    // A write's announcement is sent on the next turn of the event loop (setImmediate, one per
    // turn); queued behind it, the marker cannot overtake the last set-up write's.
    setImmediate(() => {
      void from.publish({ type: 'chat.message', room, user: 'test', message: 'marker' });
    });
  });
}
