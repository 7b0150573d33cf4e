import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createBook, createTestApp, signup, type TestApp } from '../helpers/app.ts';
import { createChapter } from '../helpers/chapters.ts';

// Slow searches must not starve the other reads of database connections (issue 17: 50 searches
// at once exhausted the one pool, and book pages answered 503 after waiting 5 s for it). The
// search statement is slowed in the database itself, whichever pool runs it: a test-only wrapper
// makes the function that splits a quoted phrase sleep first.

const SEARCH_TIMEOUT_MS = 1_500;

// On the event loop (READ_WORKERS=0, PostgreSQL's default) and on a read worker (decision 0041),
// whose errors must reach the error handler with their driver's code.
describe.each(['0', '1'])('slow searches, READ_WORKERS=%s', (workers) => {
  let t: TestApp;
  let bookId: number;

  beforeAll(async () => {
    t = await createTestApp({
      READ_CACHE: 'off',
      SEARCH_TIMEOUT_MS: String(SEARCH_TIMEOUT_MS),
      READ_WORKERS: workers,
    });
    const author = await signup(t.app);
    const book = await createBook(t.app, author, 'Patience', { published: true });
    bookId = book.id;
    await createChapter(
      t.app,
      author,
      bookId,
      { content: '<p>slow tide</p>' },
      { published: true },
    );
    await t.ctx.searchIndexer.flush();
    await sql`alter function inkwell_phrase_gram_texts(tsvector) rename to inkwell_phrase_gram_texts_fast`.execute(
      t.ctx.db,
    );
    await sql`create table test_search_sleep (seconds float not null)`.execute(t.ctx.db);
    await sql`insert into test_search_sleep values (0)`.execute(t.ctx.db);
    await sql`create function inkwell_phrase_gram_texts(doc tsvector) returns text[]
      language plpgsql as $$
        begin
          perform pg_sleep((select seconds from test_search_sleep));
          return inkwell_phrase_gram_texts_fast(doc);
        end $$`.execute(t.ctx.db);
  });
  afterAll(() => t.close());

  /** How long each search statement sleeps from now on. */
  async function setSearchSleep(seconds: number) {
    await sql`update test_search_sleep set seconds = ${seconds}`.execute(t.ctx.db);
  }

  const slowSearch = () =>
    as(t.app).get(`/api/books/search?q=${encodeURIComponent('"slow tide"')}`);

  it('leave book pages answering while 50 of them run', async () => {
    await setSearchSleep(0.5);
    const searches = Array.from({ length: 50 }, slowSearch);
    // Book pages asked while every search connection is taken and searches queue for them.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const pages = [];
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      const res = await as(t.app).get(`/api/books/${bookId}`);
      pages.push({ status: res.statusCode, ms: performance.now() - started });
    }
    const answered = await Promise.all(searches);
    expect(pages.map((p) => p.status)).toEqual(Array(20).fill(200));
    // Each page read is one short statement; waiting behind searches would take seconds.
    expect(Math.max(...pages.map((p) => p.ms))).toBeLessThan(1_000);
    // Searches beyond what their pool serves in time are told to retry, quickly and clearly.
    for (const res of answered) {
      expect([200, 503]).toContain(res.statusCode);
      if (res.statusCode === 503) {
        expect(res.json()).toMatchObject({ code: 'unavailable' });
        expect(res.headers['retry-after']).toBeDefined();
      }
    }
    expect(answered.some((res) => res.statusCode === 200)).toBe(true);
  });

  it('are cut off by the statement timeout and answer 503', async () => {
    await setSearchSleep((SEARCH_TIMEOUT_MS * 2) / 1000);
    const started = performance.now();
    const res = await slowSearch();
    const took = performance.now() - started;
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'unavailable' });
    expect(took).toBeLessThan(SEARCH_TIMEOUT_MS * 2);
    // The book page is not held up meanwhile, and search recovers when the database is quick.
    expect((await as(t.app).get(`/api/books/${bookId}`)).statusCode).toBe(200);
    await setSearchSleep(0);
    expect((await slowSearch()).json().books.map((b: { id: number }) => b.id)).toEqual([bookId]);
  });
});

describe('any other statement', () => {
  it('is cut off by the pool statement timeout, so a runaway query cannot hold a connection', async () => {
    const other = await createTestApp({ DB_STATEMENT_TIMEOUT_MS: '300' });
    try {
      await expect(sql`select pg_sleep(2)`.execute(other.ctx.db)).rejects.toMatchObject({
        code: '57014',
      });
      // The pool keeps serving.
      expect((await sql`select 1 as one`.execute(other.ctx.db)).rows).toEqual([{ one: 1 }]);
    } finally {
      await other.close();
    }
  });
});
