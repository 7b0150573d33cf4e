import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  createBook,
  createTestApp,
  NO_REQUEST_LIMITS,
  signup,
  type TestApp,
  type TestUser,
} from '../helpers/app.ts';
import { createChapter } from '../helpers/chapters.ts';
import { testEngine } from '../helpers/database.ts';
import { multipart } from '../helpers/images.ts';

/**
 * One record, one address (issue 23 §4): an id in a path is written in decimal digits without a
 * leading zero, and any other spelling of it answers 404, on every route. The routes come from
 * the app itself (an onRoute hook while it is built), so a route added later is checked too.
 * Every record the bad spellings could name exists (id 16, and 10 for `1e1`), so a route that
 * read `0x10` as 16 would answer it.
 */
interface Route {
  method: string;
  url: string;
}

const routes: Route[] = [];
/** Path parameters that hold an id: `:id`, `:bookId`, `:chapterId`, ... (not `:genre`, `:token`, `:username`). */
const ID_PARAM = /^(id|[a-z]+Id)$/;
const idParamsOf = (url: string) =>
  [...url.matchAll(/:(\w+)/g)].map((m) => m[1]!).filter((name) => ID_PARAM.test(name));

const TARGET = 16;
/** Spellings of 16 (or of 10) other than "16", and things that are no id at all. */
const BAD_FORMS = [
  '0x10',
  '0X10',
  '0b10000',
  '0o20',
  '1e1',
  '1.6e1',
  '16e0',
  '+16',
  '16.0',
  '16.',
  '016',
  '00016',
  '%2016',
  '16%20',
  '%20',
  '%0916',
  '-16',
  '0',
  '%EF%BC%91%EF%BC%96', // fullwidth digits
  '2147483648', // beyond the id range
  '9007199254740993', // beyond 2^53
  '99999999999999999999',
  'Infinity',
];

let t: TestApp;
let owner: TestUser;
let importJob: number;
/** A kept version of chapter 16 (issue 20): versions are numbered across chapters, so not 16. */
let revisionOfTarget: number;

beforeAll(async () => {
  t = await createTestApp(
    // Every route many times from one address: the request limits would answer 429 first.
    { LOGIN_MAX_FAILURES: '1000', ...NO_REQUEST_LIMITS },
    {
      onRoute: (route: RouteOptions) => {
        for (const method of [route.method].flat()) routes.push({ method, url: route.url });
      },
    },
  );
  owner = await signup(t.app);
  // Authors 1..16, books 1..16 each with its chapter, notes 1..16, comments 1..16: every id the
  // forms could mean.
  for (let i = 2; i <= TARGET; i++) await signup(t.app);
  for (let i = 1; i <= TARGET; i++) {
    const book = await createBook(t.app, owner, `Book ${i}`, { published: true });
    const chapter = await createChapter(
      t.app,
      owner,
      book.id,
      { title: `Chapter ${i}` },
      { published: true },
    );
    await as(t.app, owner).post('/api/my/notes', { book_id: book.id, body: `note ${i}` });
    await as(t.app, owner).post(`/api/chapters/${chapter.id}/comments`, { body: `comment ${i}` });
  }
  revisionOfTarget = (await as(t.app, owner).get(`/api/chapters/${TARGET}/revisions`)).json()
    .revisions[0].id;
  const story = multipart('file', Buffer.from('# A Story\n\nText.\n'), 'story.md', 'text/markdown');
  importJob = (
    await t.app.inject({
      method: 'POST',
      url: '/api/imports',
      headers: { ...story.headers, authorization: `Bearer ${owner.token}` },
      payload: story.payload,
    })
  ).json().id;
}, 120_000);
afterAll(() => t.close());

const withIds = (url: string, value: (name: string) => string) =>
  url.replace(/:(\w+)/g, (whole, name: string) => (ID_PARAM.test(name) ? value(name) : whole));

/** As the owner of everything; writes carry an empty JSON object, so only the path can be wrong. */
const call = (method: string, url: string) =>
  t.app.inject({
    method: method as 'GET',
    url,
    headers: { authorization: `Bearer ${owner.token}` },
    ...(method !== 'GET' && method !== 'HEAD' && { payload: {} }),
  });

describe(`ids in paths have one spelling (${testEngine()})`, () => {
  const withIdParams = () => routes.filter((route) => idParamsOf(route.url).length > 0);

  it('finds the routes that take ids from the route table', () => {
    const found = new Set(withIdParams().map((r) => `${r.method} ${r.url}`));
    for (const known of [
      'GET /api/books/:id',
      'GET /api/books/:id/chapters',
      'GET /api/books/:id/genres',
      'PUT /api/books/:bookId/chapters/:chapterId',
      'DELETE /api/chapters/:id',
      'GET /api/authors/:id',
      'GET /api/my/notes/:id',
      'GET /api/imports/:id',
      'HEAD /api/books/:id',
    ])
      expect(found, known).toContain(known);
    expect(found.size).toBeGreaterThan(40);
  });

  it('reads the canonical id on each route that reads (the fixture names real records)', async () => {
    const missing: string[] = [];
    for (const route of withIdParams()) {
      if (route.method !== 'GET' || route.url.includes('feed-token')) continue;
      // One import job is enough to show the route reads its id.
      const id = route.url.startsWith('/api/imports/') ? importJob : TARGET;
      const url = withIds(route.url, (name) =>
        String(name === 'revisionId' ? revisionOfTarget : id),
      );
      const res = await call('GET', url);
      if (res.statusCode === 404) missing.push(`${url}: ${res.body}`);
    }
    expect(missing).toEqual([]);
  });

  it(
    'answers 404 to every other spelling of an id, on every method of every route',
    {
      timeout: 120_000,
    },
    async () => {
      const wrong: string[] = [];
      for (const route of withIdParams()) {
        for (const param of idParamsOf(route.url)) {
          for (const form of BAD_FORMS) {
            const url = withIds(route.url, (name) => (name === param ? form : String(TARGET)));
            const res = await call(route.method, url);
            if (res.statusCode !== 404) wrong.push(`${route.method} ${url}: ${res.statusCode}`);
            else if (route.method !== 'HEAD' && res.json().code !== 'not_found')
              wrong.push(`${route.method} ${url}: ${res.body}`);
          }
        }
      }
      expect(wrong).toEqual([]);
    },
  );

  it('keeps the records the bad spellings pointed at untouched', async () => {
    expect((await call('GET', `/api/books/${TARGET}`)).statusCode).toBe(200);
    expect((await call('GET', `/api/chapters/${TARGET}`)).statusCode).toBe(200);
    expect((await call('GET', `/api/my/notes/${TARGET}`)).statusCode).toBe(200);
    expect((await call('GET', '/api/books/10')).statusCode).toBe(200);
  });
});
