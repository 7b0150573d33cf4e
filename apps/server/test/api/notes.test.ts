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
let stranger: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  author = await signup(t.app);
  reader = await signup(t.app);
  stranger = await signup(t.app);
});
afterAll(() => t.close());

let counter = 0;
async function fixture() {
  const book = await createBook(t.app, author, `Noted book ${++counter}`, { published: true });
  const one = await createChapter(
    t.app,
    author,
    book.id,
    { title: 'One', content: '<p>a</p><p>b</p>' },
    { published: true },
  );
  const two = await createChapter(
    t.app,
    author,
    book.id,
    { title: 'Two', content: '<p>c</p>' },
    { published: true },
  );
  const draft = await createChapter(t.app, author, book.id, { title: 'Secret draft' });
  return { book, one, two, draft };
}

const post = (user: TestUser | null, body: object) => as(t.app, user).post('/api/my/notes', body);

describe('private notes', () => {
  it('attaches notes to a book and to a paragraph of a chapter, keeping the quote', async () => {
    const { book, one } = await fixture();
    const onBook = await post(reader, { book_id: book.id, body: 'Recommended by a friend' });
    expect(onBook.statusCode).toBe(201);
    expect(onBook.json()).toMatchObject({
      book_id: book.id,
      book_title: book.title,
      chapter_id: null,
      chapter_title: null,
      paragraph: null,
      quote: null,
      body: 'Recommended by a friend',
    });
    const onParagraph = await post(reader, {
      book_id: book.id,
      chapter_id: one.id,
      paragraph: 1,
      quote: '  b  ',
      body: 'What does b mean?',
    });
    expect(onParagraph.statusCode).toBe(201);
    expect(onParagraph.json()).toMatchObject({
      chapter_id: one.id,
      chapter_title: 'One',
      chapter_order: 1,
      paragraph: 1,
      quote: 'b',
    });
  });

  it('stores the body as plain text, exactly as typed (trimmed)', async () => {
    const { book } = await fixture();
    const res = await post(reader, {
      book_id: book.id,
      body: '  <b>bold?</b> & <script>x</script>\nline two ',
    });
    expect(res.json().body).toBe('<b>bold?</b> & <script>x</script>\nline two');
  });

  it('lists a chapter or a book in reading order, and everything by last change', async () => {
    const { book, one, two } = await fixture();
    const fresh = await signup(t.app);
    const made = [];
    made.push(
      (
        await post(fresh, { book_id: book.id, chapter_id: two.id, paragraph: 0, body: 'two/0' })
      ).json(),
    );
    made.push(
      (
        await post(fresh, { book_id: book.id, chapter_id: one.id, paragraph: 1, body: 'one/1' })
      ).json(),
    );
    made.push(
      (
        await post(fresh, { book_id: book.id, chapter_id: one.id, paragraph: 0, body: 'one/0' })
      ).json(),
    );
    made.push((await post(fresh, { book_id: book.id, body: 'book' })).json());
    made.push(
      (await post(fresh, { book_id: book.id, chapter_id: one.id, body: 'one/whole' })).json(),
    );

    const bodies = async (query: string) =>
      (await as(t.app, fresh).get(`/api/my/notes${query}`))
        .json()
        .notes.map((n: { body: string }) => n.body);
    expect(await bodies(`?book_id=${book.id}`)).toEqual([
      'book',
      'one/whole',
      'one/0',
      'one/1',
      'two/0',
    ]);
    expect(await bodies(`?chapter_id=${one.id}`)).toEqual(['one/whole', 'one/0', 'one/1']);
    expect(await bodies(`?book_id=${book.id}&limit=2&offset=1`)).toEqual(['one/whole', 'one/0']);

    await as(t.app, fresh).put(`/api/my/notes/${made[0].id}`, { body: 'two/0 edited' });
    expect((await bodies(''))[0]).toBe('two/0 edited');
    expect(await bodies('')).toHaveLength(5);
    expect(await bodies(`?book_id=999999`)).toEqual([]);
  });

  it('validates what a note attaches to', async () => {
    const { book, one, draft } = await fixture();
    const other = await fixture();
    expect((await post(reader, { book_id: book.id, body: '' })).statusCode).toBe(400);
    expect((await post(reader, { book_id: book.id, body: '   ' })).statusCode).toBe(400);
    expect((await post(reader, { book_id: book.id, body: 'x'.repeat(10_001) })).statusCode).toBe(
      400,
    );
    expect(
      (await post(reader, { book_id: book.id, paragraph: 2, body: 'no chapter' })).statusCode,
    ).toBe(400);
    expect(
      (await post(reader, { book_id: book.id, quote: 'q', body: 'no chapter' })).statusCode,
    ).toBe(400);
    expect(
      (
        await post(reader, {
          book_id: book.id,
          chapter_id: one.id,
          quote: 'q'.repeat(2001),
          body: 'long quote',
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (await post(reader, { book_id: book.id, chapter_id: one.id, paragraph: -1, body: 'x' }))
        .statusCode,
    ).toBe(400);
    expect(
      (await post(reader, { book_id: book.id, chapter_id: other.one.id, body: 'wrong book' }))
        .statusCode,
    ).toBe(404);
    expect(
      (await post(reader, { book_id: book.id, chapter_id: draft.id, body: 'draft' })).statusCode,
    ).toBe(404);
    expect((await post(reader, { book_id: 999_999, body: 'nothing' })).statusCode).toBe(404);
    const hidden = await createBook(t.app, author, `Hidden ${++counter}`);
    expect((await post(reader, { book_id: hidden.id, body: 'draft book' })).statusCode).toBe(404);
    expect((await post(author, { book_id: hidden.id, body: 'my own draft' })).statusCode).toBe(201);
  });

  it('hides notes on a book its author unpublished, until it is published again', async () => {
    const { book, one } = await fixture();
    const note = (
      await post(reader, { book_id: book.id, chapter_id: one.id, body: 'kept' })
    ).json();
    await as(t.app, author).put(`/api/books/${book.id}/chapters/${one.id}`, {
      is_published: false,
    });
    expect((await as(t.app, reader).get(`/api/my/notes/${note.id}`)).statusCode).toBe(404);
    await as(t.app, author).put(`/api/books/${book.id}/chapters/${one.id}`, { is_published: true });
    await as(t.app, author).put(`/api/books/${book.id}`, {
      title: book.title,
      is_published: false,
    });
    expect((await as(t.app, reader).get(`/api/my/notes?book_id=${book.id}`)).json().notes).toEqual(
      [],
    );
    await as(t.app, author).put(`/api/books/${book.id}`, { title: book.title, is_published: true });
    expect((await as(t.app, reader).get(`/api/my/notes/${note.id}`)).json().body).toBe('kept');
  });

  it('keeps a note whose chapter is deleted, as a note on the book with its quote', async () => {
    const { book, two } = await fixture();
    const note = (
      await post(reader, {
        book_id: book.id,
        chapter_id: two.id,
        paragraph: 0,
        quote: 'c',
        body: 'on c',
      })
    ).json();
    expect((await as(t.app, author).delete(`/api/chapters/${two.id}`)).statusCode).toBe(200);
    expect((await as(t.app, reader).get(`/api/my/notes/${note.id}`)).json()).toMatchObject({
      chapter_id: null,
      chapter_title: null,
      paragraph: null,
      quote: 'c',
      body: 'on c',
    });
  });

  it('updates and deletes', async () => {
    const { book } = await fixture();
    const note = (await post(reader, { book_id: book.id, body: 'first' })).json();
    const updated = await as(t.app, reader).put(`/api/my/notes/${note.id}`, { body: 'second' });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().body).toBe('second');
    expect(updated.json().updated_at >= note.updated_at).toBe(true);
    expect((await as(t.app, reader).put(`/api/my/notes/${note.id}`, { body: '' })).statusCode).toBe(
      400,
    );
    expect((await as(t.app, reader).delete(`/api/my/notes/${note.id}`)).statusCode).toBe(200);
    expect((await as(t.app, reader).get(`/api/my/notes/${note.id}`)).statusCode).toBe(404);
    expect((await as(t.app, reader).delete(`/api/my/notes/${note.id}`)).statusCode).toBe(404);
  });
});

/** Every note call as a visitor (401), as someone else (404, as if it did not exist) and as the writer (2xx). */
describe('notes ownership matrix', () => {
  type Caller = TestUser | null;
  const rows: Array<
    [string, (who: Caller, id: number) => ReturnType<ReturnType<typeof as>['get']>]
  > = [
    ['GET /api/my/notes/{id}', (who, id) => as(t.app, who).get(`/api/my/notes/${id}`)],
    [
      'PUT /api/my/notes/{id}',
      (who, id) => as(t.app, who).put(`/api/my/notes/${id}`, { body: 'changed' }),
    ],
    ['DELETE /api/my/notes/{id}', (who, id) => as(t.app, who).delete(`/api/my/notes/${id}`)],
  ];

  it.each(rows)('%s', async (_name, call) => {
    const { book, one } = await fixture();
    const note = (
      await post(reader, {
        book_id: book.id,
        chapter_id: one.id,
        paragraph: 0,
        quote: 'a',
        body: 'mine',
      })
    ).json();
    expect((await call(null, note.id)).statusCode).toBe(401);
    expect((await call(stranger, note.id)).statusCode).toBe(404);
    // The book's author is no more entitled to a reader's note than anyone else.
    expect((await call(author, note.id)).statusCode).toBe(404);
    expect((await as(t.app, reader).get(`/api/my/notes/${note.id}`)).json()).toEqual(note);
    const own = await call(reader, note.id);
    expect(own.statusCode).toBeGreaterThanOrEqual(200);
    expect(own.statusCode).toBeLessThan(300);
  });

  it('refuses visitors on list and create, and lists only the caller’s notes', async () => {
    const { book } = await fixture();
    expect((await as(t.app).get('/api/my/notes')).statusCode).toBe(401);
    expect((await post(null, { book_id: book.id, body: 'x' })).statusCode).toBe(401);
    await post(reader, { book_id: book.id, body: 'reader only' });
    const strangers = (await as(t.app, stranger).get(`/api/my/notes?book_id=${book.id}`)).json()
      .notes;
    expect(strangers).toEqual([]);
  });
});
