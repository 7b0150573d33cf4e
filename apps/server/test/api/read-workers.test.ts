import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/kysely.ts';
import { inlineReads } from '../../src/modules/reads/read-services.ts';
import {
  as,
  createBook,
  createTestApp,
  signup,
  type TestApp,
  type TestUser,
} from '../helpers/app.ts';
import { createChapter } from '../helpers/chapters.ts';
import { searchIds } from '../helpers/search.ts';

/**
 * Decision 0041: searches and book lists answered on read worker threads, each with its own
 * read-only connection, answer what the same services answer on the event loop, see every
 * write as soon as it is acknowledged, and keep drafts private. On both engines (READ_WORKERS=2
 * here; `auto` gives SQLite one per CPU and PostgreSQL none).
 */
const WORD = `workerword${process.pid}`;

let t: TestApp;
let author: TestUser;
let reader: TestUser;
let published: number;
let draft: number;

beforeAll(async () => {
  t = await createTestApp({ READ_WORKERS: '2', READ_CACHE: 'off' });
  author = await signup(t.app);
  reader = await signup(t.app);
  const book = await createBook(t.app, author, `The ${WORD} road`, { published: true });
  published = book.id;
  await as(t.app, author).put(`/api/books/${published}`, { tags: ['Dragons'] });
  await createChapter(
    t.app,
    author,
    published,
    { title: 'One', content: `<p>Before.</p><p>The ${WORD} waits here.</p>` },
    { published: true },
  );
  const hidden = await createBook(t.app, author, `A ${WORD} draft`);
  draft = hidden.id;
  await createChapter(t.app, author, draft, { title: 'Secret', content: `<p>${WORD}</p>` });
});

afterAll(async () => {
  await t?.close();
});

describe('reads on worker threads', () => {
  it('answer a search as the service does on the event loop, with its match and snippet', async () => {
    expect(await searchIds(t, WORD)).toEqual([published]);
    const query = { q: WORD, limit: 10, offset: 0, sort: 'relevance' as const };
    const onWorker = await t.ctx.reads.run('searchBooks', null, query);
    const here = await inlineReads(t.ctx).run('searchBooks', null, query);
    expect(onWorker).toEqual(here);
    expect(onWorker.books[0]?.match?.snippet).toContain(WORD);
  });

  it('answer the book lists as the services do, drafts left out', async () => {
    const request = { limit: 10, offset: 0, tags: ['dragons'] };
    const onWorker = await t.ctx.reads.run('listBooks', null, request);
    expect(onWorker).toEqual(await inlineReads(t.ctx).run('listBooks', null, request));
    expect(onWorker.books.map((b) => b.id)).toEqual([published]);
    const all = await as(t.app).get('/api/books?limit=100');
    expect(all.statusCode).toBe(200);
    const ids = all.json<{ id: number }[]>().map((b) => b.id);
    expect(ids).toContain(published);
    expect(ids).not.toContain(draft);
  });

  it('see a write as soon as it is acknowledged', async () => {
    // A reader's saved exclusion applies to the very next list and search.
    const saved = await as(t.app, reader).put('/api/my/filters', { exclude_tags: ['Dragons'] });
    expect(saved.statusCode).toBe(200);
    const list = await as(t.app, reader).get('/api/books?limit=100');
    expect(list.json<{ id: number }[]>().map((b) => b.id)).not.toContain(published);
    const search = await as(t.app, reader).get(`/api/books/search?q=${WORD}`);
    expect(search.json<{ books: unknown[]; hidden: number }>()).toMatchObject({
      books: [],
      hidden: 1,
    });
    // A book published by its author is on the next page of the list.
    const late = await createBook(t.app, author, `Published ${WORD} later`, { published: true });
    const next = await as(t.app).get('/api/books?limit=100');
    expect(next.json<{ id: number }[]>().map((b) => b.id)).toContain(late.id);
    await as(t.app, reader).put('/api/my/filters', { exclude_tags: [] });
  });

  it("work on a connection that cannot write, however a read's SQL were wrong", async () => {
    const readOnly = createDb(t.config.DATABASE_URL, {
      size: 1,
      waitMs: 2_000,
      statementTimeoutMs: 0,
      readOnly: true,
    });
    try {
      const before = await readOnly.selectFrom('genres').select('id').execute();
      expect(before.length).toBeGreaterThan(0);
      await expect(
        sql`update genres set name = name || '!' where id = ${before[0]!.id}`.execute(readOnly),
      ).rejects.toThrow(/read.?only/i);
    } finally {
      await readOnly.destroy();
    }
  });
});
