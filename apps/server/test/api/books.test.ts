import { searchIds } from '../helpers/search.ts';
import { GENRE_NAMES } from '@inkwell/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  createBook,
  createTestApp,
  signup,
  type TestApp,
  type TestUser,
} from '../helpers/app.ts';

let t: TestApp;
let author: TestUser;
let other: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  author = await signup(t.app);
  other = await signup(t.app);
});
afterAll(() => t.close());

describe('book lifecycle', () => {
  it('creates an unpublished book that only its author can see', async () => {
    const book = await createBook(t.app, author, 'The Hidden Draft');
    expect(book).toMatchObject({
      title: 'The Hidden Draft',
      is_published: false,
      author_id: author.id,
      author_username: author.username,
      username: author.username,
      genres: [],
      cover: null,
    });
    expect((await as(t.app, author).get(`/api/books/${book.id}`)).statusCode).toBe(200);
    // The spec's client reads drafts with only the cookie.
    const viaCookie = await t.app.inject({
      method: 'GET',
      url: `/api/books/${book.id}`,
      cookies: { fastapi_token: author.token },
    });
    expect(viaCookie.statusCode).toBe(200);
    expect((await as(t.app, other).get(`/api/books/${book.id}`)).statusCode).toBe(404);
    expect((await as(t.app).get(`/api/books/${book.id}`)).statusCode).toBe(404);
    const mine = (await as(t.app, author).get('/api/my/books')).json();
    expect(mine.map((b: { id: number }) => b.id)).toContain(book.id);
  });

  it('reads titles back exactly as typed', async () => {
    const title = `<b>Bold</b> & "quoted" — ünïcödé 📚`;
    const book = await createBook(t.app, author, title);
    expect((await as(t.app, author).get(`/api/books/${book.id}`)).json().title).toBe(title);
  });

  it('answers 409 for a second book with the same title, case-insensitively', async () => {
    await createBook(t.app, author, 'Twice Told');
    const res = await as(t.app, author).post('/api/books', { title: 'TWICE told' });
    expect(res.statusCode).toBe(409);
    // Another author may use the title.
    expect((await as(t.app, other).post('/api/books', { title: 'Twice Told' })).statusCode).toBe(
      201,
    );
  });

  it('publishes through PUT and lists published books newest first, ten a page', async () => {
    const fresh = await createTestApp();
    try {
      const writer = await signup(fresh.app);
      const ids: number[] = [];
      for (let i = 0; i < 12; i++)
        ids.push((await createBook(fresh.app, writer, `Book ${i}`, { published: true })).id);
      await createBook(fresh.app, writer, 'Unpublished one');
      const page1 = (await as(fresh.app).get('/api/books?limit=10&offset=0')).json();
      const page2 = (await as(fresh.app).get('/api/books?limit=10&offset=10')).json();
      expect(page1).toHaveLength(10);
      expect(page2).toHaveLength(2);
      expect([...page1, ...page2].map((b: { id: number }) => b.id)).toEqual([...ids].reverse());
      expect(page1.every((b: { is_published: boolean }) => b.is_published)).toBe(true);
      const recent = (await as(fresh.app).get('/api/recent/books')).json();
      expect(recent[0].id).toBe(ids.at(-1));
      expect(recent.some((b: { title: string }) => b.title === 'Unpublished one')).toBe(false);
    } finally {
      await fresh.close();
    }
  });

  it('updates title and summary and keeps published_at from the first publication', async () => {
    const book = await createBook(t.app, author, 'Moving Target', {
      published: true,
      summary: 'one',
    });
    const first = book.published_at;
    expect(first).toEqual(expect.any(String));
    await as(t.app, author).put(`/api/books/${book.id}`, {
      title: 'Moving Target',
      summary: 'two',
      is_published: false,
    });
    const again = await as(t.app, author).put(`/api/books/${book.id}`, {
      title: 'Moved Target',
      summary: 'three',
      is_published: true,
    });
    expect(again.json()).toMatchObject({
      title: 'Moved Target',
      summary: 'three',
      is_published: true,
      published_at: first,
    });
  });

  it('deletes a book with its genres and search document', async () => {
    const book = await createBook(t.app, author, 'Doomed Xylophone', { published: true });
    await as(t.app, author).post(`/api/books/${book.id}/genres`, { genre_id: 4 });
    const res = await as(t.app, author).delete(`/api/books/${book.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ detail: expect.any(String) });
    expect((await as(t.app, author).get(`/api/books/${book.id}`)).statusCode).toBe(404);
    expect((await as(t.app).get('/api/books/search?q=Xylophone')).json().books).toEqual([]);
  });
});

describe('ownership', () => {
  it('lets only the owner change, delete or re-genre a book', async () => {
    const book = await createBook(t.app, author, 'Guarded', { published: true });
    const attempts = [
      (u: TestUser | null) => as(t.app, u).put(`/api/books/${book.id}`, { title: 'Stolen' }),
      (u: TestUser | null) => as(t.app, u).post(`/api/books/${book.id}/genres`, { genre_id: 2 }),
      (u: TestUser | null) => as(t.app, u).delete(`/api/books/${book.id}/genres`, { genre_id: 2 }),
      (u: TestUser | null) => as(t.app, u).delete(`/api/books/${book.id}`),
    ];
    for (const attempt of attempts) {
      expect((await attempt(null)).statusCode).toBe(401);
      expect((await attempt(other)).statusCode).toBe(403);
    }
    expect((await as(t.app).get(`/api/books/${book.id}`)).json().title).toBe('Guarded');
  });

  it("answers 404, not 403, for another author's draft", async () => {
    const draft = await createBook(t.app, author, 'Secret Draft');
    expect((await as(t.app, other).put(`/api/books/${draft.id}`, { title: 'x' })).statusCode).toBe(
      404,
    );
    expect((await as(t.app, other).delete(`/api/books/${draft.id}`)).statusCode).toBe(404);
  });
});

describe('genres', () => {
  it('lists the 23 seeded genres in order', async () => {
    const { genres } = (await as(t.app).get('/api/genres')).json();
    expect(genres).toHaveLength(23);
    expect(genres[0]).toEqual({ id: 1, name: 'Fiction' });
    expect(genres[16]).toEqual({ id: 17, name: "Children's" });
    expect(genres[22]).toEqual({ id: 23, name: 'Religion & Spirituality' });
    // The first migration keeps its own copy of the list (migrations never import app code);
    // the web palette goes by the contract's: the two must not drift apart.
    expect(genres).toEqual(GENRE_NAMES.map((name, i) => ({ id: i + 1, name })));
  });

  it('attaches and detaches genres, with 409 on a repeat and 404 for unknown ones', async () => {
    const book = await createBook(t.app, author, 'Genre Test', { published: true });
    const added = await as(t.app, author).post(`/api/books/${book.id}/genres`, { genre_id: 4 });
    expect(added.statusCode).toBe(201);
    expect(added.json().genres).toEqual([{ id: 4, name: 'Fantasy' }]);
    expect(
      (await as(t.app, author).post(`/api/books/${book.id}/genres`, { genre_id: 4 })).statusCode,
    ).toBe(409);
    expect(
      (await as(t.app, author).post(`/api/books/${book.id}/genres`, { genre_id: 999 })).statusCode,
    ).toBe(404);
    await as(t.app, author).post(`/api/books/${book.id}/genres`, { genre_id: 6 });
    expect(
      (await as(t.app).get(`/api/books/${book.id}/genres`))
        .json()
        .genres.map((g: { name: string }) => g.name),
    ).toEqual(['Fantasy', 'Mystery']);
    expect((await as(t.app).get(`/api/books/${book.id}`)).json().genres).toEqual([
      'Fantasy',
      'Mystery',
    ]);
    const fantasy = (await as(t.app).get('/api/books/genres/Fantasy')).json();
    expect(fantasy.map((b: { id: number }) => b.id)).toContain(book.id);
    const removed = await as(t.app, author).delete(`/api/books/${book.id}/genres`, { genre_id: 4 });
    expect(removed.json().genres).toEqual([{ id: 6, name: 'Mystery' }]);
    expect(
      (await as(t.app, author).delete(`/api/books/${book.id}/genres`, { genre_id: 4 })).statusCode,
    ).toBe(404);
  });

  it('keeps drafts off genre pages', async () => {
    const draft = await createBook(t.app, author, 'Draft In Horror');
    await as(t.app, author).post(`/api/books/${draft.id}/genres`, { genre_id: 11 });
    const horror = (await as(t.app).get('/api/books/genres/horror')).json();
    expect(horror.map((b: { id: number }) => b.id)).not.toContain(draft.id);
    expect((await as(t.app).get(`/api/books/${draft.id}/genres`)).statusCode).toBe(404);
  });
});

describe('search', () => {
  it('finds published books by title, summary, author and genre, ranked, and never drafts', async () => {
    const writer = await signup(t.app, 'quillmaster');
    const byTitle = await createBook(t.app, writer, 'Marmalade Skies', {
      published: true,
      summary: 'A tale.',
    });
    const bySummary = await createBook(t.app, writer, 'Plain Name', {
      published: true,
      summary: 'Full of marmalade and toast.',
    });
    const draft = await createBook(t.app, writer, 'Marmalade Draft');
    await as(t.app, writer).post(`/api/books/${bySummary.id}/genres`, { genre_id: 22 });

    // Book documents are indexed a moment after the write (migration 0011): searchIds waits.
    const hits = await searchIds(t, 'marmalade');
    expect(hits).toContain(byTitle.id);
    expect(hits).toContain(bySummary.id);
    expect(hits).not.toContain(draft.id);

    expect(await searchIds(t, 'quillmaster')).toEqual(
      expect.arrayContaining([byTitle.id, bySummary.id]),
    );
    expect(await searchIds(t, 'humor')).toContain(bySummary.id);
    // Stemming: "skies" matches "sky"-less forms on both engines via the English stemmer.
    expect((await as(t.app).get('/api/books/search?q=Marmalade%20Skies')).json().books[0].id).toBe(
      byTitle.id,
    );
  });

  it.each([
    '"',
    "'; drop table books; --",
    'a AND OR NOT NEAR(',
    '*',
    '^title:x',
    '📚🐉',
    '   ',
    '\\',
    'x'.repeat(500),
    '"unbalanced phrase',
    '(((',
    'title:marmalade',
    '%00',
  ])('answers 200 for %j', async (q) => {
    const res = await as(t.app).get(`/api/books/search?q=${encodeURIComponent(q)}`);
    expect(res.statusCode).toBe(200);
    expect(Array.isArray(res.json().books)).toBe(true);
  });

  it('answers an empty list for an empty query', async () => {
    expect((await as(t.app).get('/api/books/search?q=')).json()).toEqual({ books: [], hidden: 0 });
    expect((await as(t.app).get('/api/books/search')).json()).toEqual({ books: [], hidden: 0 });
  });
});

describe('bad input', () => {
  it.each([
    '/api/books/abc',
    '/api/books/0',
    '/api/books/-1',
    '/api/books/1.5',
    '/api/books/99999999999',
    '/api/books/424242',
  ])('answers 404 for %s', async (url) => {
    const res = await as(t.app).get(url);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: expect.any(String), code: 'not_found' });
  });

  it('answers 400 for malformed JSON and wrong types', async () => {
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/books',
      headers: { authorization: `Bearer ${author.token}`, 'content-type': 'application/json' },
      payload: '{"title": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('validation');
    for (const payload of [
      { title: 42 },
      { title: '' },
      { title: '   ' },
      {},
      { title: 'x'.repeat(201) },
    ]) {
      const res = await as(t.app, author).post('/api/books', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        detail: expect.stringMatching(/^title: /),
        code: 'validation',
        field: 'title',
      });
    }
    const wrongType = await as(t.app, author).put('/api/books/1', { is_published: 'yes' });
    expect(wrongType.statusCode).toBe(400);
  });

  it('answers 413 for a body over 1 MB', async () => {
    const res = await as(t.app, author).post('/api/books', { title: 'x'.repeat(1_100_000) });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      detail: 'The request body is too large: at most 1 MB',
      code: 'payload_too_large',
    });
  });

  it('answers JSON 404 for unknown API paths', async () => {
    const res = await as(t.app).get('/api/nothing-here');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found', code: 'not_found' });
  });
});

describe('popular books', () => {
  it('ranks published books by distinct readers', async () => {
    const fresh = await createTestApp();
    try {
      const writer = await signup(fresh.app);
      const a = await createBook(fresh.app, writer, 'Alpha', { published: true });
      const b = await createBook(fresh.app, writer, 'Beta', { published: true });
      const hidden = await createBook(fresh.app, writer, 'Hidden');
      // Read history is written straight to the database: the history API is tested on its own.
      const readers = await Promise.all([1, 2, 3].map(() => signup(fresh.app)));
      const now = new Date().toISOString();
      const chapterFor = async (bookId: number) =>
        (
          await fresh.ctx.db
            .insertInto('chapters')
            .values({
              book_id: bookId,
              title: 'c',
              content: '',
              word_count: 0,
              chapter_order: 1,
              is_published: 1,
              created_at: now,
              updated_at: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      const [ca, cb, ch] = [
        await chapterFor(a.id),
        await chapterFor(b.id),
        await chapterFor(hidden.id),
      ];
      const read = (userId: number, bookId: number, chapterId: number) =>
        fresh.ctx.db
          .insertInto('read_history')
          .values({ user_id: userId, book_id: bookId, chapter_id: chapterId, read_at: now })
          .execute();
      for (const r of readers) await read(r.id, b.id, cb);
      await read(readers[0]!.id, a.id, ca);
      for (const r of readers) await read(r.id, hidden.id, ch);
      const { popular } = (await as(fresh.app).get('/api/popular/books')).json();
      expect(popular.map((p: { book_id: number }) => p.book_id)).toEqual([b.id, a.id]);
      expect(popular[0]).toEqual({ book_id: b.id, title: 'Beta', cover: null, readers: 3 });
    } finally {
      await fresh.close();
    }
  });
});
