import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  createBook,
  createTestApp,
  signup,
  type TestApp,
  type TestUser,
} from '../helpers/app.ts';
import { createChapter, type TestChapter } from '../helpers/chapters.ts';

let t: TestApp;
let author: TestUser;
let book: { id: number; title: string };

beforeAll(async () => {
  t = await createTestApp();
  author = await signup(t.app);
  book = await createBook(t.app, author, 'Chronicle', { published: true });
});
afterAll(() => t.close());

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const readUrl = (chapter: TestChapter) =>
  `/api/books/${chapter.book_id}/chapters/${chapter.id}/history`;
const record = (reader: TestUser | null, chapter: TestChapter) =>
  as(t.app, reader).post(readUrl(chapter));
const historyOf = async (reader: TestUser) => {
  const res = await as(t.app, reader).get('/api/my/history');
  expect(res.statusCode).toBe(200);
  return res.json().read_history as Array<{ chapter_id: number; book_id: number }>;
};
const publishedChapter = (title: string) =>
  createChapter(t.app, author, book.id, { title }, { published: true });

describe('recording a read', () => {
  it('answers 201 with the read, then 409 on a repeat', async () => {
    const reader = await signup(t.app);
    const chapter = await publishedChapter('One');
    const res = await record(reader, chapter);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      book_id: book.id,
      chapter_id: chapter.id,
      read_at: expect.stringMatching(ISO),
    });

    const again = await record(reader, chapter);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('conflict');
    expect(await historyOf(reader)).toHaveLength(1);
  });

  it('turns racing repeats into one 201 and 409s, never a 500', async () => {
    const reader = await signup(t.app);
    const chapter = await publishedChapter('Race');
    const results = await Promise.all(Array.from({ length: 6 }, () => record(reader, chapter)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);
  });

  it('accepts an empty body sent with a JSON content type', async () => {
    const reader = await signup(t.app);
    const chapter = await publishedChapter('Client style');
    const res = await t.app.inject({
      method: 'POST',
      url: readUrl(chapter),
      headers: { authorization: `Bearer ${reader.token}`, 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(201);
  });

  it('answers 401 without a session', async () => {
    expect((await record(null, await publishedChapter('Anonymous'))).statusCode).toBe(401);
  });

  it('answers 404 for chapters the reader cannot see, wrong books and bad ids', async () => {
    const reader = await signup(t.app);
    const draftChapter = await createChapter(t.app, author, book.id, { title: 'Draft' });
    const draftBook = await createBook(t.app, author, 'Unreleased');
    const inDraftBook = await createChapter(t.app, author, draftBook.id, {}, { published: true });
    const other = await createBook(t.app, author, 'Other', { published: true });
    const chapter = await publishedChapter('Elsewhere');

    for (const url of [
      readUrl(draftChapter),
      readUrl(inDraftBook),
      `/api/books/${other.id}/chapters/${chapter.id}/history`,
      `/api/books/${book.id}/chapters/999999/history`,
      `/api/books/${book.id}/chapters/abc/history`,
      `/api/books/x/chapters/${chapter.id}/history`,
    ]) {
      const res = await as(t.app, reader).post(url);
      expect(res.statusCode, url).toBe(404);
    }
    expect(await historyOf(reader)).toEqual([]);
    // The author may record reads of their own drafts: they can see them.
    expect((await record(author, draftChapter)).statusCode).toBe(201);
  });
});

describe('GET /api/my/history', () => {
  it('lists the reader’s reads newest first with book and chapter details', async () => {
    const reader = await signup(t.app);
    const chapters = [
      await publishedChapter('First'),
      await publishedChapter('Second'),
      await publishedChapter('Third'),
    ];
    for (const chapter of chapters) {
      expect((await record(reader, chapter)).statusCode).toBe(201);
    }
    const someoneElse = await signup(t.app);
    await record(someoneElse, chapters[0]!);

    const history = await historyOf(reader);
    expect(history.map((h) => h.chapter_id)).toEqual(chapters.map((c) => c.id).reverse());
    expect(history[0]).toEqual({
      book_id: book.id,
      book_title: 'Chronicle',
      book_cover: null,
      chapter_id: chapters[2]!.id,
      chapter_title: 'Third',
      read_at: expect.stringMatching(ISO),
    });
  });

  it('leaves out chapters and books unpublished since, and shows them again when republished', async () => {
    const reader = await signup(t.app);
    const ownBook = await createBook(t.app, author, 'Fleeting', { published: true });
    const kept = await createChapter(
      t.app,
      author,
      ownBook.id,
      { title: 'Kept' },
      { published: true },
    );
    const hidden = await createChapter(
      t.app,
      author,
      ownBook.id,
      { title: 'Hidden' },
      { published: true },
    );
    await record(reader, kept);
    await record(reader, hidden);

    const chapterUrl = `/api/books/${ownBook.id}/chapters/${hidden.id}`;
    await as(t.app, author).put(chapterUrl, { is_published: false });
    expect((await historyOf(reader)).map((h) => h.chapter_id)).toEqual([kept.id]);

    await as(t.app, author).put(`/api/books/${ownBook.id}`, {
      title: 'Fleeting',
      is_published: false,
    });
    expect(await historyOf(reader)).toEqual([]);

    await as(t.app, author).put(`/api/books/${ownBook.id}`, {
      title: 'Fleeting',
      is_published: true,
    });
    await as(t.app, author).put(chapterUrl, { is_published: true });
    expect((await historyOf(reader)).map((h) => h.chapter_id)).toEqual([hidden.id, kept.id]);
  });

  it('drops entries of deleted chapters', async () => {
    const reader = await signup(t.app);
    const chapter = await publishedChapter('Doomed');
    await record(reader, chapter);
    expect((await as(t.app, author).delete(`/api/chapters/${chapter.id}`)).statusCode).toBe(200);
    expect(await historyOf(reader)).toEqual([]);
  });

  it('pages with limit and offset, and refuses bad paging with 400', async () => {
    const reader = await signup(t.app);
    const chapters = [
      await publishedChapter('P1'),
      await publishedChapter('P2'),
      await publishedChapter('P3'),
    ];
    for (const chapter of chapters) await record(reader, chapter);
    const page = (await as(t.app, reader).get('/api/my/history?limit=1&offset=1')).json()
      .read_history;
    expect(page.map((h: { chapter_id: number }) => h.chapter_id)).toEqual([chapters[1]!.id]);
    expect((await as(t.app, reader).get('/api/my/history?limit=abc')).statusCode).toBe(400);
  });

  it('answers 401 without a session', async () => {
    expect((await as(t.app).get('/api/my/history')).statusCode).toBe(401);
  });
});

describe('DELETE /api/chapters/{chapterId}/history', () => {
  it("removes only the viewer's entry, then answers 404", async () => {
    const reader = await signup(t.app);
    const neighbour = await signup(t.app);
    const chapter = await publishedChapter('Forget me');
    await record(reader, chapter);
    await record(neighbour, chapter);

    const res = await as(t.app, reader).delete(`/api/chapters/${chapter.id}/history`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ detail: expect.any(String) });
    expect(await historyOf(reader)).toEqual([]);
    expect((await historyOf(neighbour)).map((h) => h.chapter_id)).toEqual([chapter.id]);

    expect((await as(t.app, reader).delete(`/api/chapters/${chapter.id}/history`)).statusCode).toBe(
      404,
    );
    // Once deleted, the chapter can be recorded again.
    expect((await record(reader, chapter)).statusCode).toBe(201);
  });

  it('answers 401 without a session and 404 for unknown or malformed ids', async () => {
    const reader = await signup(t.app);
    const chapter = await publishedChapter('Untouched');
    expect((await as(t.app).delete(`/api/chapters/${chapter.id}/history`)).statusCode).toBe(401);
    for (const id of ['999999', 'abc', '-1']) {
      expect((await as(t.app, reader).delete(`/api/chapters/${id}/history`)).statusCode).toBe(404);
    }
  });
});
