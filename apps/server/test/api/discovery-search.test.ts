import { FILTERED_HIDDEN_HEADER } from '@inkwell/contract/constants';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createBook, createTestApp, signup, type TestApp } from '../helpers/app.ts';
import { createChapter } from '../helpers/chapters.ts';

/** Issue 21: search with the list filters, and hits that say why they matched. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface Hit {
  id: number;
  match: { chapter_id: number; chapter_title: string; paragraph: number; snippet: string } | null;
}
const search = async (query: string, who?: { token: string }) => {
  await t.ctx.searchIndexer.flush();
  const res = await as(t.app, who).get(`/api/books/search?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return { res, body: res.json<{ books: Hit[]; hidden: number }>() };
};

let n = 0;
const word = (stem: string) => `${stem}${process.pid}q${++n}`;

describe('search that shows why', () => {
  it('points at the first chapter and block whose text matched, with the words marked', async () => {
    const author = await signup(t.app);
    const rare = word('zephyrine');
    const book = await createBook(t.app, author, `Why ${rare.slice(-4)}`, { published: true });
    await createChapter(
      t.app,
      author,
      book.id,
      { title: 'Opening', content: '<p>Nothing here.</p>' },
      { published: true },
    );
    const second = await createChapter(
      t.app,
      author,
      book.id,
      {
        title: 'The storm',
        content: `<p>First block.</p><h2>A heading</h2><p>The wind was <em>${rare}</em> &amp; cold, said <b>she</b>.</p>`,
      },
      { published: true },
    );
    await createChapter(
      t.app,
      author,
      book.id,
      { title: 'Later', content: `<p>${rare} again.</p>` },
      { published: true },
    );
    const { body } = await search(`q=${rare}`);
    expect(body.books.map((b) => b.id)).toEqual([book.id]);
    expect(body.books[0]!.match).toEqual({
      chapter_id: second.id,
      chapter_title: 'The storm',
      paragraph: 2,
      snippet: `The wind was <mark>${rare}</mark> &amp; cold, said she.`,
    });
  });

  it('takes the match in reading order, not in the order the chapters were written', async () => {
    const author = await signup(t.app);
    const rare = word('quillborne');
    const book = await createBook(t.app, author, `Order ${rare.slice(-4)}`, { published: true });
    const chapter = (title: string, content: string) =>
      createChapter(t.app, author, book.id, { title, content }, { published: true });
    const written = await chapter('Written first', `<p>Early ${rare}.</p>`);
    const plain = await chapter('No match', '<p>Nothing here.</p>');
    const moved = await chapter('Moved to the front', `<p>Late ${rare}.</p>`);
    const reordered = await as(t.app, author).put(`/api/books/${book.id}/chapters`, {
      chapters: [
        { id: moved.id, chapter_order: 1 },
        { id: plain.id, chapter_order: 2 },
        { id: written.id, chapter_order: 3 },
      ],
    });
    expect(reordered.statusCode, reordered.body).toBe(200);
    const { body } = await search(`q=${rare}`);
    expect(body.books[0]!.match).toEqual({
      chapter_id: moved.id,
      chapter_title: 'Moved to the front',
      paragraph: 0,
      snippet: `Late <mark>${rare}</mark>.`,
    });
  });

  it('answers match null when only the title matched, and finds a book by its tag', async () => {
    const author = await signup(t.app);
    const titled = word('Titleword');
    const book = await createBook(t.app, author, titled, { published: true });
    await createChapter(
      t.app,
      author,
      book.id,
      { title: 'c', content: '<p>plain words</p>' },
      { published: true },
    );
    expect((await search(`q=${titled}`)).body.books).toMatchObject([{ id: book.id, match: null }]);
    const tag = word('Tagword');
    const tagged = await createBook(t.app, author, `Tagged ${n}`, { published: true });
    await as(t.app, author).put(`/api/books/${tagged.id}`, { tags: [tag] });
    expect((await search(`q=${tag}`)).body.books.map((b) => b.id)).toEqual([tagged.id]);
  });

  it("finds a tag's books by its exact name, one with no letters at all, before text matches", async () => {
    const author = await signup(t.app);
    const emoji = `🐉✨${'🔥'.repeat(n++ % 5)}`;
    const dragons = await createBook(t.app, author, `Dragons ${n}`, { published: true });
    await as(t.app, author).put(`/api/books/${dragons.id}`, { tags: [emoji] });
    const draft = await createBook(t.app, author, `Draft ${n}`);
    await as(t.app, author).put(`/api/books/${draft.id}`, { tags: [emoji] });
    const found = await search(`q=${encodeURIComponent(` ${emoji} `)}`);
    expect(found.body.books).toMatchObject([{ id: dragons.id, match: null }]);

    // A word tag: its book comes before books that only mention the word, whatever their score.
    const name = word('Wyrmtale');
    const mentions = await createBook(t.app, author, `${name} ${name} ${name}`, {
      published: true,
    });
    const tagged = await createBook(t.app, author, `Tagged ${n}`, { published: true });
    await as(t.app, author).put(`/api/books/${tagged.id}`, { tags: [name.toUpperCase()] });
    expect((await search(`q=${name}`)).body.books.map((b) => b.id)).toEqual([
      tagged.id,
      mentions.id,
    ]);
    // Filters and exclusions still apply to them.
    await as(t.app, author).put(`/api/books/${tagged.id}`, { rating: 'mature' });
    expect((await search(`q=${name}&rating=general`)).body.books.map((b) => b.id)).toEqual([
      mentions.id,
    ]);
  });

  it('applies filters inside the query, so pages stay whole, and counts what exclusions hid', async () => {
    const author = await signup(t.app);
    const reader = await signup(t.app);
    const common = word('commonword');
    const made: number[] = [];
    for (let i = 0; i < 6; i++) {
      const book = await createBook(t.app, author, `${common} ${i}`, { published: true });
      await as(t.app, author).put(`/api/books/${book.id}`, {
        rating: i % 2 === 0 ? 'teen' : 'explicit',
      });
      made.push(book.id);
    }
    const teen = made.filter((_, i) => i % 2 === 0);
    const page1 = (await search(`q=${common}&rating=teen&limit=2`)).body.books.map((b) => b.id);
    const page2 = (await search(`q=${common}&rating=teen&limit=2&offset=2`)).body.books.map(
      (b) => b.id,
    );
    expect([...page1, ...page2].sort()).toEqual([...teen].sort());
    const byNew = (await search(`q=${common}&sort=new`)).body.books.map((b) => b.id);
    expect(byNew).toEqual([...made].reverse());

    await as(t.app, reader).put('/api/my/filters', { exclude_ratings: ['explicit'] });
    const mine = await search(`q=${common}`, reader);
    expect(mine.body.books.map((b) => b.id).sort()).toEqual([...teen].sort());
    expect(mine.body.hidden).toBe(3);
    expect(mine.res.headers[FILTERED_HIDDEN_HEADER]).toBe('3');
    expect(mine.res.headers['cache-control']).toContain('private');
    const visitor = await search(`q=${common}`);
    expect(visitor.body.books).toHaveLength(6);
    expect(visitor.body.hidden).toBe(0);
    expect((await search(`q=${common}&filters=off`, reader)).body.books).toHaveLength(6);
  });
});
