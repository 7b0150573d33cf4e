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

let t: TestApp;
let author: TestUser;
let reader: TestUser;
let other: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  author = await signup(t.app);
  reader = await signup(t.app);
  other = await signup(t.app);
});
afterAll(() => t.close());

let counter = 0;
/** A published book with `published` published chapters and one draft chapter. */
async function bookWithChapters(published = 3) {
  const book = await createBook(t.app, author, `Shelf book ${++counter}`, {
    published: true,
    summary: 'A summary',
  });
  const chapters = [];
  for (let i = 1; i <= published; i++) {
    chapters.push(
      await createChapter(
        t.app,
        author,
        book.id,
        { title: `Chapter ${i}`, content: '<p>one</p><p>two</p>' },
        { published: true },
      ),
    );
  }
  const draft = await createChapter(t.app, author, book.id, {
    title: 'Draft chapter',
    content: '<p>secret</p>',
  });
  return { book, chapters, draft };
}

const entryOf = async (user: TestUser, bookId: number) =>
  as(t.app, user).get(`/api/my/library/${bookId}`);
const shelve = (user: TestUser | null, bookId: number, body: object) =>
  as(t.app, user).put(`/api/my/library/${bookId}`, body);

describe('shelves', () => {
  it('refuses visitors on every library and progress call', async () => {
    const { book, chapters } = await bookWithChapters(1);
    const visitor = as(t.app);
    expect((await visitor.get('/api/my/library')).statusCode).toBe(401);
    expect((await visitor.get(`/api/my/library/${book.id}`)).statusCode).toBe(401);
    expect((await shelve(null, book.id, { status: 'reading' })).statusCode).toBe(401);
    expect((await visitor.get(`/api/my/progress/${book.id}`)).statusCode).toBe(401);
    expect(
      (
        await visitor.put(`/api/my/progress/${book.id}`, {
          chapter_id: chapters[0]!.id,
          paragraph: 0,
          offset: 0,
        })
      ).statusCode,
    ).toBe(401);
  });

  it('answers status none for a book never shelved, with its progress', async () => {
    const { book } = await bookWithChapters(2);
    const res = await entryOf(reader, book.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      book: {
        id: book.id,
        title: book.title,
        cover: null,
        author_username: author.username,
        is_published: true,
      },
      status: 'none',
      owned: false,
      progress: { chapters_read: 0, total_chapters: 2 },
      position: null,
      last_read_at: null,
      updated_at: null,
    });
  });

  it('puts a book on one shelf at a time and lists the shelves with book cards', async () => {
    const { book } = await bookWithChapters(2);
    const put = await shelve(reader, book.id, { status: 'want_to_read' });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ status: 'want_to_read', owned: false });

    let shelves = (await as(t.app, reader).get('/api/my/library')).json().shelves;
    expect(shelves.want_to_read.map((e: { book: { id: number } }) => e.book.id)).toContain(book.id);
    expect(
      shelves.want_to_read.find((e: { book: { id: number } }) => e.book.id === book.id).book,
    ).toEqual({
      id: book.id,
      title: book.title,
      summary: 'A summary',
      cover: null,
      is_published: true,
      author_id: author.id,
      author_username: author.username,
      author_first_name: '',
      author_last_name: '',
    });

    await shelve(reader, book.id, { status: 'finished' });
    shelves = (await as(t.app, reader).get('/api/my/library')).json().shelves;
    const ids = (list: Array<{ book: { id: number } }>) => list.map((e) => e.book.id);
    expect(ids(shelves.finished)).toContain(book.id);
    expect(ids(shelves.want_to_read)).not.toContain(book.id);
    expect(ids(shelves.reading)).not.toContain(book.id);
  });

  it('keeps owned apart from the status, and forgets the book when neither is left', async () => {
    const { book } = await bookWithChapters(1);
    expect((await shelve(reader, book.id, { owned: true })).json()).toMatchObject({
      status: 'none',
      owned: true,
    });
    let shelves = (await as(t.app, reader).get('/api/my/library')).json().shelves;
    const has = (list: Array<{ book: { id: number } }>) => list.some((e) => e.book.id === book.id);
    expect(has(shelves.owned)).toBe(true);
    expect(
      has(shelves.reading) ||
        has(shelves.finished) ||
        has(shelves.dropped) ||
        has(shelves.want_to_read),
    ).toBe(false);

    // Changing the status leaves owned as it was, and the other way round.
    expect((await shelve(reader, book.id, { status: 'dropped' })).json()).toMatchObject({
      status: 'dropped',
      owned: true,
    });
    expect((await shelve(reader, book.id, { owned: false })).json()).toMatchObject({
      status: 'dropped',
      owned: false,
    });
    expect((await shelve(reader, book.id, { status: 'none' })).json()).toMatchObject({
      status: 'none',
      owned: false,
      updated_at: null,
    });

    shelves = (await as(t.app, reader).get('/api/my/library')).json().shelves;
    expect(
      Object.values(shelves).some((list) => has(list as Array<{ book: { id: number } }>)),
    ).toBe(false);
    const rows = await t.ctx.db
      .selectFrom('library_entries')
      .selectAll()
      .where('book_id', '=', book.id)
      .execute();
    expect(rows).toEqual([]);
  });

  it('validates the body', async () => {
    const { book } = await bookWithChapters(1);
    expect((await shelve(reader, book.id, {})).statusCode).toBe(400);
    expect((await shelve(reader, book.id, { status: 'reread' })).statusCode).toBe(400);
    expect((await shelve(reader, book.id, { owned: 'yes' })).statusCode).toBe(400);
    expect((await shelve(reader, 999_999, { status: 'reading' })).statusCode).toBe(404);
    expect((await shelve(reader, 0, { status: 'reading' })).statusCode).toBe(404);
  });

  it("shelves only visible books: another author's draft is 404, one's own draft is fine", async () => {
    const draft = await createBook(t.app, author, `Draft shelf ${++counter}`);
    expect((await shelve(reader, draft.id, { status: 'reading' })).statusCode).toBe(404);
    expect((await entryOf(reader, draft.id)).statusCode).toBe(404);
    expect((await shelve(author, draft.id, { status: 'reading' })).statusCode).toBe(200);
  });

  it('hides a shelved book once its author unpublishes it, and shows it again when republished', async () => {
    const { book } = await bookWithChapters(1);
    await shelve(reader, book.id, { status: 'reading' });
    await as(t.app, author).put(`/api/books/${book.id}`, {
      title: book.title,
      is_published: false,
    });
    const ids = async () =>
      (await as(t.app, reader).get('/api/my/library'))
        .json()
        .shelves.reading.map((e: { book: { id: number } }) => e.book.id);
    expect(await ids()).not.toContain(book.id);
    expect((await entryOf(reader, book.id)).statusCode).toBe(404);
    await as(t.app, author).put(`/api/books/${book.id}`, { title: book.title, is_published: true });
    expect(await ids()).toContain(book.id);
  });

  it("keeps each reader's shelves to themselves", async () => {
    const { book } = await bookWithChapters(1);
    await shelve(reader, book.id, { status: 'finished', owned: true });
    await shelve(other, book.id, { status: 'dropped' });
    expect((await entryOf(reader, book.id)).json()).toMatchObject({
      status: 'finished',
      owned: true,
    });
    expect((await entryOf(other, book.id)).json()).toMatchObject({
      status: 'dropped',
      owned: false,
    });
    await shelve(other, book.id, { status: 'none' });
    expect((await entryOf(reader, book.id)).json()).toMatchObject({
      status: 'finished',
      owned: true,
    });
  });
});

describe('reading progress', () => {
  const save = (user: TestUser | null, bookId: number, body: object) =>
    as(t.app, user).put(`/api/my/progress/${bookId}`, body);

  it('saves the position and answers it on any device of the same reader', async () => {
    const { book, chapters } = await bookWithChapters(3);
    const res = await save(reader, book.id, {
      chapter_id: chapters[1]!.id,
      paragraph: 7,
      offset: 42,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      book_id: book.id,
      position: {
        chapter_id: chapters[1]!.id,
        chapter_title: 'Chapter 2',
        chapter_order: 2,
        paragraph: 7,
        offset: 42,
      },
      progress: { chapters_read: 0, total_chapters: 3 },
    });

    // A second session of the same account ("another device").
    const login = await t.app.inject({
      method: 'POST',
      url: '/token',
      payload: { username: reader.username, password: reader.password },
    });
    expect(login.statusCode).toBe(200);
    const device = { token: login.json().access_token as string };
    const seen = (await as(t.app, device).get(`/api/my/progress/${book.id}`)).json();
    expect(seen.position).toMatchObject({ chapter_id: chapters[1]!.id, paragraph: 7, offset: 42 });
    expect(seen.last_read_at).toBe(res.json().position.updated_at);

    // The last write wins.
    await save(reader, book.id, { chapter_id: chapters[2]!.id, paragraph: 0, offset: 3 });
    expect(
      (await as(t.app, device).get(`/api/my/progress/${book.id}`)).json().position,
    ).toMatchObject({
      chapter_id: chapters[2]!.id,
      paragraph: 0,
      offset: 3,
    });
    // Nobody else sees it.
    expect((await as(t.app, other).get(`/api/my/progress/${book.id}`)).json().position).toBeNull();
  });

  it("puts a book on no shelf on 'reading', and leaves a chosen shelf alone", async () => {
    const a = await bookWithChapters(1);
    await save(reader, a.book.id, { chapter_id: a.chapters[0]!.id, paragraph: 0, offset: 0 });
    expect((await entryOf(reader, a.book.id)).json()).toMatchObject({
      status: 'reading',
      owned: false,
    });

    const b = await bookWithChapters(1);
    await shelve(reader, b.book.id, { status: 'finished' });
    await save(reader, b.book.id, { chapter_id: b.chapters[0]!.id, paragraph: 1, offset: 0 });
    expect((await entryOf(reader, b.book.id)).json().status).toBe('finished');

    const c = await bookWithChapters(1);
    await shelve(reader, c.book.id, { owned: true });
    await save(reader, c.book.id, { chapter_id: c.chapters[0]!.id, paragraph: 1, offset: 0 });
    expect((await entryOf(reader, c.book.id)).json()).toMatchObject({
      status: 'reading',
      owned: true,
    });
  });

  it('refuses a chapter of another book, a draft chapter and bad numbers', async () => {
    const { book, draft } = await bookWithChapters(1);
    const elsewhere = await bookWithChapters(1);
    expect(
      (
        await save(reader, book.id, {
          chapter_id: elsewhere.chapters[0]!.id,
          paragraph: 0,
          offset: 0,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await save(reader, book.id, { chapter_id: draft.id, paragraph: 0, offset: 0 })).statusCode,
    ).toBe(404);
    expect(
      (await save(reader, book.id, { chapter_id: 999_999, paragraph: 0, offset: 0 })).statusCode,
    ).toBe(404);
    expect(
      (
        await save(reader, book.id, {
          chapter_id: elsewhere.chapters[0]!.id,
          paragraph: -1,
          offset: 0,
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await save(reader, book.id, {
          chapter_id: elsewhere.chapters[0]!.id,
          paragraph: 1.5,
          offset: 0,
        })
      ).statusCode,
    ).toBe(400);
    expect((await save(reader, book.id, { paragraph: 0, offset: 0 })).statusCode).toBe(400);
    expect((await as(t.app, reader).get(`/api/my/progress/${book.id}`)).json().position).toBeNull();
    // The author may keep a position in their own draft chapter.
    expect(
      (await save(author, book.id, { chapter_id: draft.id, paragraph: 0, offset: 0 })).statusCode,
    ).toBe(200);
  });

  it('counts chapters read from the history, published chapters only, and dates the last read', async () => {
    const { book, chapters, draft } = await bookWithChapters(3);
    const read = (chapterId: number) =>
      as(t.app, reader).post(`/api/books/${book.id}/chapters/${chapterId}/history`);
    expect((await read(chapters[0]!.id)).statusCode).toBe(201);
    expect((await read(chapters[0]!.id)).statusCode).toBe(409);
    const second = await read(chapters[2]!.id);
    expect(second.statusCode).toBe(201);

    let progress = (await as(t.app, reader).get(`/api/my/progress/${book.id}`)).json();
    expect(progress.progress).toEqual({ chapters_read: 2, total_chapters: 3 });
    expect(progress.last_read_at).toBe(second.json().read_at);
    expect(progress.position).toBeNull();

    // Unpublishing a chapter takes it out of both counts; the author's own draft reads do not count.
    await as(t.app, author).put(`/api/books/${book.id}/chapters/${chapters[2]!.id}`, {
      is_published: false,
    });
    progress = (await as(t.app, reader).get(`/api/my/progress/${book.id}`)).json();
    expect(progress.progress).toEqual({ chapters_read: 1, total_chapters: 2 });
    await as(t.app, author).post(`/api/books/${book.id}/chapters/${draft.id}/history`);
    expect((await as(t.app, author).get(`/api/my/progress/${book.id}`)).json().progress).toEqual({
      chapters_read: 0,
      total_chapters: 2,
    });

    // The library entry carries the same progress.
    await shelve(reader, book.id, { status: 'reading' });
    const entry = (await as(t.app, reader).get('/api/my/library'))
      .json()
      .shelves.reading.find((e: { book: { id: number } }) => e.book.id === book.id);
    expect(entry.progress).toEqual({ chapters_read: 1, total_chapters: 2 });
    expect(entry.last_read_at).toBe(second.json().read_at);
  });

  it('drops a saved position whose chapter was unpublished or deleted', async () => {
    const { book, chapters } = await bookWithChapters(2);
    await save(reader, book.id, { chapter_id: chapters[1]!.id, paragraph: 3, offset: 0 });
    await as(t.app, author).put(`/api/books/${book.id}/chapters/${chapters[1]!.id}`, {
      is_published: false,
    });
    expect((await as(t.app, reader).get(`/api/my/progress/${book.id}`)).json().position).toBeNull();
    await as(t.app, author).put(`/api/books/${book.id}/chapters/${chapters[1]!.id}`, {
      is_published: true,
    });
    expect(
      (await as(t.app, reader).get(`/api/my/progress/${book.id}`)).json().position,
    ).toMatchObject({ paragraph: 3 });
    expect((await as(t.app, author).delete(`/api/chapters/${chapters[1]!.id}`)).statusCode).toBe(
      200,
    );
    expect((await as(t.app, reader).get(`/api/my/progress/${book.id}`)).json().position).toBeNull();
  });

  it('orders each shelf by the last activity', async () => {
    const first = await bookWithChapters(1);
    const second = await bookWithChapters(1);
    const fresh = await signup(t.app);
    await shelve(fresh, first.book.id, { status: 'reading' });
    await shelve(fresh, second.book.id, { status: 'reading' });
    const order = async () =>
      (await as(t.app, fresh).get('/api/my/library'))
        .json()
        .shelves.reading.map((e: { book: { id: number } }) => e.book.id);
    expect(await order()).toEqual([second.book.id, first.book.id]);
    await save(fresh, first.book.id, {
      chapter_id: first.chapters[0]!.id,
      paragraph: 0,
      offset: 0,
    });
    expect(await order()).toEqual([first.book.id, second.book.id]);
  });
});
