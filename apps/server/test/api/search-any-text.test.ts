import { SEARCH_QUERY_MAX_LENGTH } from '@inkwell/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createBook, createTestApp, signup, type TestApp } from '../helpers/app.ts';

/**
 * Search never refuses text (issue 23 §5): whatever a reader types or pastes answers 200 with a
 * list. Over-long text is cut to SEARCH_QUERY_MAX_LENGTH characters and control characters are
 * dropped, before the search runs.
 */
let t: TestApp;
let bookId: number;
beforeAll(async () => {
  t = await createTestApp();
  const author = await signup(t.app);
  bookId = (await createBook(t.app, author, 'Marmalade Lighthouse', { published: true })).id;
  // The book's title reaches search a moment after the write (migration 0011).
  await t.ctx.searchIndexer.flush();
});
afterAll(() => t.close());

const search = (q: string) => as(t.app).get(`/api/books/search?q=${encodeURIComponent(q)}`);
const ids = async (q: string) => {
  const res = await search(q);
  expect(res.statusCode, JSON.stringify(q.slice(0, 40))).toBe(200);
  return res.json().books.map((b: { id: number }) => b.id) as number[];
};

describe('search takes any text', () => {
  it.each([
    ['text over the bound', 'x'.repeat(SEARCH_QUERY_MAX_LENGTH + 1)],
    ['ten thousand characters', 'marmalade '.repeat(1000)],
    ['a NUL character', 'marmalade\u0000lighthouse'],
    ['only NUL', '\u0000'],
    ['control characters', '\u0001\u0002marmalade\u001b[31m\u007f\u0085'],
    ['astral characters past the bound', '📚'.repeat(SEARCH_QUERY_MAX_LENGTH + 3)],
  ])('answers 200 with a list for %s', async (_what, q) => {
    const res = await search(q);
    expect(res.statusCode).toBe(200);
    expect(Array.isArray(res.json().books)).toBe(true);
  });

  it('still finds what long text starts with, the rest being cut', async () => {
    const q = `marmalade lighthouse ${'zzz '.repeat(200)}`;
    expect(q.length).toBeGreaterThan(SEARCH_QUERY_MAX_LENGTH);
    // Cut at the bound, the query still holds the two words (and many a "zzz", matched by nothing).
    expect(await ids(q)).toEqual([]);
    expect(await ids(`marmalade lighthouse${' '.repeat(600)}`)).toEqual([bookId]);
  });

  it('reads control characters as nothing, line breaks and tabs as spaces', async () => {
    expect(await ids('marmalade\u0000')).toEqual([bookId]);
    expect(await ids('marm\u0000alade')).toEqual([bookId]);
    expect(await ids('marmalade\nlighthouse')).toEqual([bookId]);
    expect(await ids('marmalade\tlighthouse')).toEqual([bookId]);
    expect(await ids('\u0007')).toEqual([]);
  });

  it.each(['%ED%A0%80marmalade', '%FF', '%E0%A4%A', '%', '%00%00', 'a%2', '%C0%80'])(
    'answers 200 with a list for the raw query string q=%s',
    async (raw) => {
      const res = await as(t.app).get(`/api/books/search?q=${raw}`);
      expect(res.statusCode).toBe(200);
      expect(Array.isArray(res.json().books)).toBe(true);
    },
  );

  it('reads a repeated q as one query', async () => {
    const res = await as(t.app).get('/api/books/search?q=marmalade&q=lighthouse');
    expect(res.statusCode).toBe(200);
    expect(res.json().books.map((b: { id: number }) => b.id)).toEqual([bookId]);
  });

  it('opens the search page for a shared link whatever its text', async () => {
    for (const url of ['/books/search?q=a%00b', `/books/search?q=${'x'.repeat(2000)}`]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url.slice(0, 40)).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
    }
    // Unknown API paths stay a JSON 404, whatever their text.
    expect((await t.app.inject('/api/nothing?q=a%00')).statusCode).toBe(404);
  });

  it('still refuses a bad page size: it is not text a reader typed', async () => {
    expect((await as(t.app).get('/api/books/search?q=a&limit=abc')).statusCode).toBe(400);
  });
});
