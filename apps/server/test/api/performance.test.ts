import { gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPostgres } from '../../src/db/kysely.ts';
import { CHAPTER_WINDOW } from '../../src/modules/search/search.repository.ts';
import { searchIds as searchAppIds } from '../helpers/search.ts';
import {
  as,
  createBook,
  createTestApp,
  signup,
  type TestApp,
  type TestUser,
} from '../helpers/app.ts';
import { createChapter } from '../helpers/chapters.ts';

// The behaviour the performance work (migration 0004, decisions 0006 to 0012) must keep.
let t: TestApp;
let author: TestUser;
let book: { id: number };

beforeAll(async () => {
  t = await createTestApp();
  author = await signup(t.app);
  book = await createBook(t.app, author, 'Indexed Book', { published: true });
});
afterAll(() => t.close());

const searchIds = (q: string) => searchAppIds(t, q);
const chapterUrl = (chapterId: number) => `/api/books/${book.id}/chapters/${chapterId}`;

/** Whether the chapter search index holds the chapter (SQLite FTS5, or PostgreSQL's chapter_search). */
async function indexedChapter(chapterId: number): Promise<boolean> {
  if (isPostgres(t.ctx.db)) {
    const { rows } =
      await sql`select 1 from chapter_search where chapter_id = ${chapterId}`.execute(t.ctx.db);
    return rows.length > 0;
  }
  // An external-content FTS5 table answers a plain rowid lookup from its content table; a match
  // on a word of the chapter asks the index itself.
  const { rows } = await sql<{
    rowid: number;
  }>`select rowid from chapter_fts where chapter_fts match 'chapterprobe' and rowid = ${chapterId}`.execute(
    t.ctx.db,
  );
  return rows.length > 0;
}

describe('the chapter search index holds published chapters only', () => {
  it('leaves drafts out, indexes on publishing, follows edits, and drops the text on unpublishing', async () => {
    const chapter = await createChapter(t.app, author, book.id, {
      content: '<p>chapterprobe quixotrellis</p>',
    });
    expect(await searchIds('quixotrellis')).toEqual([]);
    expect(await indexedChapter(chapter.id)).toBe(false);

    // Saving a draft again keeps it out of the index.
    expect(
      (
        await as(t.app, author).put(chapterUrl(chapter.id), {
          content: '<p>chapterprobe quixotrellis again</p>',
        })
      ).statusCode,
    ).toBe(200);
    expect(await indexedChapter(chapter.id)).toBe(false);

    expect(
      (await as(t.app, author).put(chapterUrl(chapter.id), { is_published: true })).statusCode,
    ).toBe(200);
    expect(await searchIds('quixotrellis')).toEqual([book.id]);
    expect(await indexedChapter(chapter.id)).toBe(true);

    await as(t.app, author).put(chapterUrl(chapter.id), {
      content: '<p>chapterprobe vellumwright</p>',
    });
    expect(await searchIds('quixotrellis')).toEqual([]);
    expect(await searchIds('vellumwright')).toEqual([book.id]);

    await as(t.app, author).put(chapterUrl(chapter.id), { is_published: false });
    expect(await searchIds('vellumwright')).toEqual([]);
    expect(await indexedChapter(chapter.id)).toBe(false);

    // Deleting a published chapter takes its text out too.
    const other = await createChapter(
      t.app,
      author,
      book.id,
      { content: '<p>chapterprobe ossifrage</p>' },
      { published: true },
    );
    expect(await searchIds('ossifrage')).toEqual([book.id]);
    expect((await as(t.app, author).delete(`/api/chapters/${other.id}`)).statusCode).toBe(200);
    expect(await searchIds('ossifrage')).toEqual([]);
  });

  it('ranks a match in the book document above matches in chapter text only', async () => {
    const writer = await signup(t.app);
    const byText = await createBook(t.app, writer, 'Plain Title', { published: true });
    await createChapter(
      t.app,
      writer,
      byText.id,
      { content: '<p>lanternfish lanternfish</p>' },
      { published: true },
    );
    await createChapter(
      t.app,
      writer,
      byText.id,
      { content: '<p>more lanternfish</p>' },
      { published: true },
    );
    const byTitle = await createBook(t.app, writer, 'The Lanternfish', { published: true });
    expect(await searchIds('lanternfish')).toEqual([byTitle.id, byText.id]);
  });

  it(`finds a rare word outside the newest ${CHAPTER_WINDOW} matches of a common one`, async () => {
    expect(CHAPTER_WINDOW).toBeGreaterThan(0);
    const writer = await signup(t.app);
    const old = await createBook(t.app, writer, 'Old Book', { published: true });
    await createChapter(
      t.app,
      writer,
      old.id,
      { content: '<p>harbour glimmerstone</p>' },
      { published: true },
    );
    const recent = await createBook(t.app, writer, 'Recent Book', { published: true });
    await createChapter(
      t.app,
      writer,
      recent.id,
      { content: '<p>harbour</p>' },
      { published: true },
    );
    expect(await searchIds('glimmerstone')).toEqual([old.id]);
    expect(await searchIds('harbour glimmerstone')).toEqual([old.id]);
    expect((await searchIds('harbour')).sort()).toEqual([old.id, recent.id].sort());
  });
});

describe('popular books count distinct readers as history changes', () => {
  it('counts a reader once per book, and uncounts them with their last chapter of it', async () => {
    // Reading empties no cache: visitors see the ranking move within READ_CACHE_MAX_AGE_SECONDS
    // (read-cache.test.ts); this test is about the count.
    const fresh = await createTestApp({ READ_CACHE: 'off' });
    try {
      const writer = await signup(fresh.app);
      const liked = await createBook(fresh.app, writer, 'Liked', { published: true });
      const [one, two] = [
        await createChapter(fresh.app, writer, liked.id, {}, { published: true }),
        await createChapter(fresh.app, writer, liked.id, {}, { published: true }),
      ];
      const reader = await signup(fresh.app);
      const read = (chapterId: number) =>
        as(fresh.app, reader).post(`/api/books/${liked.id}/chapters/${chapterId}/history`);
      const readers = async () => (await as(fresh.app).get('/api/popular/books')).json().popular;
      // Two chapters of one book, recorded at the same time: still one reader.
      await Promise.all([read(one.id), read(two.id)]);
      expect(await readers()).toEqual([
        { book_id: liked.id, title: 'Liked', cover: null, readers: 1 },
      ]);
      expect(
        (await as(fresh.app, reader).delete(`/api/chapters/${one.id}/history`)).statusCode,
      ).toBe(200);
      expect((await readers())[0].readers).toBe(1);
      expect(
        (await as(fresh.app, reader).delete(`/api/chapters/${two.id}/history`)).statusCode,
      ).toBe(200);
      expect(await readers()).toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});

describe('autosaves arriving together', () => {
  it('each commit on their own: a stale one answers 409 and the others are kept', async () => {
    const chapters = await Promise.all(
      [1, 2, 3, 4].map((n) =>
        createChapter(t.app, author, book.id, { content: `<p>draft ${n}</p>` }),
      ),
    );
    const answers = await Promise.all(
      chapters.map((chapter, i) =>
        as(t.app, author).put(chapterUrl(chapter.id), {
          content: `<p>saved together ${i}</p>`,
          // The third sends a version the chapter no longer has.
          version: i === 2 ? chapter.version + 5 : chapter.version,
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 409, 200]);
    for (const [i, chapter] of chapters.entries()) {
      const stored = (await as(t.app, author).get(`/api/chapters/${chapter.id}`)).json();
      expect(stored.content).toBe(i === 2 ? '<p>draft 3</p>' : `<p>saved together ${i}</p>`);
      expect(stored.version).toBe(i === 2 ? chapter.version : chapter.version + 1);
    }
  });

  it('refuses other people, as a lone save does', async () => {
    const stranger = await signup(t.app);
    const chapter = await createChapter(t.app, author, book.id, {});
    const [mine, theirs] = await Promise.all([
      as(t.app, author).put(chapterUrl(chapter.id), { content: '<p>mine</p>' }),
      as(t.app, stranger).put(chapterUrl(chapter.id), { content: '<p>theirs</p>' }),
    ]);
    expect(mine.statusCode).toBe(200);
    expect(theirs.statusCode).toBe(403);
    expect((await as(t.app, author).get(`/api/chapters/${chapter.id}`)).json().content).toBe(
      '<p>mine</p>',
    );
  });
});

describe('caching headers of public reads', () => {
  it('answers an ETag, revalidates with 304, and keeps signed-in answers private', async () => {
    const chapter = await createChapter(
      t.app,
      author,
      book.id,
      { content: '<p>cached</p>' },
      { published: true },
    );
    const url = `/api/chapters/${chapter.id}`;
    const first = await t.app.inject({ method: 'GET', url });
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers['cache-control']).toBe('public, no-cache');
    expect(String(first.headers.vary)).toContain('Authorization');

    const again = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    await as(t.app, author).put(chapterUrl(chapter.id), { content: '<p>changed</p>' });
    const changed = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().content).toBe('<p>changed</p>');

    const signedIn = await t.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${author.token}` },
    });
    expect(signedIn.headers['cache-control']).toBe('private, no-cache');
    // Clients that accept gzip get a long answer gzipped; the body is the same JSON.
    const long = await createChapter(
      t.app,
      author,
      book.id,
      { content: `<p>${'a long line '.repeat(200)}</p>` },
      { published: true },
    );
    const plain = await t.app.inject({ method: 'GET', url: `/api/chapters/${long.id}` });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const gzipped = await t.app.inject({
      method: 'GET',
      url: `/api/chapters/${long.id}`,
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzipped.rawPayload).toString('utf8'))).toEqual(plain.json());
    expect(
      (await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } })).headers[
        'content-encoding'
      ],
    ).toBeUndefined();
    // Errors carry no validator.
    const missing = await t.app.inject({ method: 'GET', url: '/api/chapters/999999' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers.etag).toBeUndefined();
  });
});

describe('the book list', () => {
  it('pages by offset in publication order, with chapter counts, however deep the page', async () => {
    const fresh = await createTestApp();
    try {
      const writer = await signup(fresh.app);
      const ids: number[] = [];
      for (let i = 0; i < 25; i++)
        ids.push((await createBook(fresh.app, writer, `Book ${i}`, { published: true })).id);
      await createChapter(fresh.app, writer, ids[3]!, {}, { published: true });
      await createChapter(fresh.app, writer, ids[3]!, {});
      const pages = [];
      for (const offset of [0, 10, 20])
        pages.push(...(await as(fresh.app).get(`/api/books?limit=10&offset=${offset}`)).json());
      expect(pages.map((b: { id: number }) => b.id)).toEqual([...ids].reverse());
      expect(pages.find((b: { id: number }) => b.id === ids[3]).chapter_count).toBe(1);
    } finally {
      await fresh.close();
    }
  });
});
