import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  createBook,
  createTestApp,
  signup,
  type TestApp,
  type TestUser,
} from '../helpers/app.ts';
import { createChapter } from '../helpers/chapters.ts';

// Chapter text reaches the search index after the save (migration 0009): the save answers without
// indexing, and search catches up within a bound (README: about SEARCH_INDEX_INTERVAL_MS).

/** What the README promises with the default interval (1 s), with room for a busy machine. */
const LAG_BOUND_MS = 5_000;

async function found(t: TestApp, word: string, bookId: number): Promise<boolean> {
  const res = await as(t.app).get(`/api/books/search?q=${word}`);
  expect(res.statusCode).toBe(200);
  return res.json<{ books: { id: number }[] }>().books.some((b) => b.id === bookId);
}

describe('with the default indexing interval', () => {
  let t: TestApp;
  let author: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    author = await signup(t.app);
  });
  afterAll(() => t.close());

  it(`finds a published chapter's new text, and no longer its old text, within ${LAG_BOUND_MS / 1000} s`, async () => {
    const book = await createBook(t.app, author, 'Lagging Tides', { published: true });
    const chapter = await createChapter(
      t.app,
      author,
      book.id,
      { content: '<p>the oldword marrowfen</p>' },
      { published: true },
    );
    await t.ctx.searchIndexer.flush();
    expect(await found(t, 'marrowfen', book.id)).toBe(true);

    const saved = performance.now();
    const res = await as(t.app, author).put(`/api/books/${book.id}/chapters/${chapter.id}`, {
      content: '<p>the newword quillbrack</p>',
    });
    expect(res.statusCode).toBe(200);
    while (!(await found(t, 'quillbrack', book.id))) {
      const lag = performance.now() - saved;
      expect(lag, 'search still lacks the new text').toBeLessThan(LAG_BOUND_MS);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await found(t, 'marrowfen', book.id)).toBe(false);
  });
});

describe('the save itself', () => {
  let t: TestApp;
  let author: TestUser;
  beforeAll(async () => {
    // An indexer that never comes round on its own: what the request did is all there is.
    t = await createTestApp({ SEARCH_INDEX_INTERVAL_MS: '3600000' });
    author = await signup(t.app);
  });
  afterAll(() => t.close());

  it('queues the new text of a published chapter instead of indexing it', async () => {
    const book = await createBook(t.app, author, 'Queued Tides', { published: true });
    const chapter = await createChapter(t.app, author, book.id, {}, { published: true });
    await t.ctx.searchIndexer.flush();
    await as(t.app, author).put(`/api/books/${book.id}/chapters/${chapter.id}`, {
      content: '<p>saltmarrow</p>',
    });
    expect(await found(t, 'saltmarrow', book.id)).toBe(false);
    const pending = await t.ctx.db
      .selectFrom('search_pending')
      .select('chapter_id')
      .where('chapter_id', '=', chapter.id)
      .execute();
    expect(pending.length).toBe(1);
    await t.ctx.searchIndexer.flush();
    expect(await found(t, 'saltmarrow', book.id)).toBe(true);
  });

  it('queues nothing for a draft, and one indexing for many saves of a chapter', async () => {
    const book = await createBook(t.app, author, 'Draft Tides', { published: true });
    const draft = await createChapter(t.app, author, book.id);
    const published = await createChapter(t.app, author, book.id, {}, { published: true });
    await t.ctx.searchIndexer.flush();
    for (let i = 0; i < 5; i++) {
      for (const chapter of [draft, published])
        await as(t.app, author).put(`/api/books/${book.id}/chapters/${chapter.id}`, {
          content: `<p>save ${i}</p>`,
        });
    }
    const pending = await t.ctx.db.selectFrom('search_pending').select('chapter_id').execute();
    expect(pending.map((p) => p.chapter_id)).toEqual(Array(5).fill(published.id));
    await t.ctx.searchIndexer.flush();
    expect(await t.ctx.db.selectFrom('search_pending').select('id').execute()).toEqual([]);
  });

  it('takes an unpublished or deleted chapter out of search at once, without the indexer', async () => {
    const book = await createBook(t.app, author, 'Vanishing Tides', { published: true });
    const [first, second] = [
      await createChapter(
        t.app,
        author,
        book.id,
        { content: '<p>glassfern</p>' },
        { published: true },
      ),
      await createChapter(
        t.app,
        author,
        book.id,
        { content: '<p>tallowmere</p>' },
        { published: true },
      ),
    ];
    await t.ctx.searchIndexer.flush();
    expect(await found(t, 'glassfern', book.id)).toBe(true);
    expect(await found(t, 'tallowmere', book.id)).toBe(true);

    await as(t.app, author).put(`/api/books/${book.id}/chapters/${first!.id}`, {
      is_published: false,
    });
    await as(t.app, author).delete(`/api/chapters/${second!.id}`);
    expect(await found(t, 'glassfern', book.id)).toBe(false);
    expect(await found(t, 'tallowmere', book.id)).toBe(false);
  });
});
