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
import { multipart } from '../helpers/images.ts';

/*
 * A refusal that is one request field's names it in the error body's `field` (decision 0001), so
 * a form marks that field without reading the words: every value a body or query schema refuses,
 * a taken title, and the services' own refusals of one value.
 */

let t: TestApp;
let author: TestUser;
let bookId: number;
beforeAll(async () => {
  t = await createTestApp();
  author = await signup(t.app);
  bookId = (await createBook(t.app, author, 'Emma')).id;
});
afterAll(() => t.close());

describe('values a schema refuses', () => {
  it.each([
    ['a rating outside the list', { title: 'Emma', rating: 'spicy' }, 'rating'],
    ['a status outside the list', { title: 'Emma', status: 'paused' }, 'status'],
    ['a bad third tag', { title: 'Emma', tags: ['one', 'two', 'x'.repeat(51)] }, 'tags'],
    ['a title of the wrong type', { title: 42 }, 'title'],
  ])('names the field of %s in a JSON body', async (_what, body, field) => {
    const res = await as(t.app, author).put(`/api/books/${bookId}`, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      detail: expect.stringMatching(new RegExp(`^${field}\\b`)),
      code: 'validation',
      field,
    });
  });

  it('names the query parameter a list refuses', async () => {
    const res = await as(t.app, null).get('/api/books?rating=spicy');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation', field: 'rating' });
  });

  it('names the field of a form body, as the spec client sends it', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ username: 'someone', password: 'x'.repeat(257) }).toString(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation', field: 'password' });
  });

  it('names the list, not the place in it, for a bad entry of a chapter order', async () => {
    const res = await as(t.app, author).put(`/api/books/${bookId}/chapters`, {
      chapters: [{ id: 'first', chapter_order: 1 }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation', field: 'chapters' });
  });

  it('names no field when the body as a whole is wrong', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/books/${bookId}`,
      headers: { authorization: `Bearer ${author.token}`, 'content-type': 'application/json' },
      payload: '[1, 2]',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBeUndefined();
  });
});

describe("the services' refusals of one value", () => {
  it('names the title another of the author’s books has, when creating and when renaming', async () => {
    await createBook(t.app, author, 'Persuasion');
    const created = await as(t.app, author).post('/api/books', { title: 'persuasion' });
    expect(created.statusCode).toBe(409);
    expect(created.json()).toEqual({
      detail: 'You already have a book with this title',
      code: 'conflict',
      field: 'title',
    });
    const renamed = await as(t.app, author).put(`/api/books/${bookId}`, { title: 'Persuasion' });
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json().field).toBe('title');
  });

  it('names publish_at when it is in the past', async () => {
    const chapter = await createChapter(t.app, author, bookId);
    const res = await as(t.app, author).put(`/api/books/${bookId}/chapters/${chapter.id}`, {
      publish_at: '2020-01-01T00:00:00Z',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      detail: 'publish_at must be in the future',
      code: 'validation',
      field: 'publish_at',
    });
  });

  it('names the chapter list when an order names a chapter twice', async () => {
    const chapter = await createChapter(t.app, author, bookId);
    const res = await as(t.app, author).put(`/api/books/${bookId}/chapters`, {
      chapters: [
        { id: chapter.id, chapter_order: 1 },
        { id: chapter.id, chapter_order: 2 },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation', field: 'chapters' });
  });

  it('names the image field when the upload is not an image', async () => {
    const body = multipart(
      'image',
      Buffer.from('plain text, not a picture'),
      'me.png',
      'image/png',
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/authors/avatar',
      payload: body.payload,
      headers: { ...body.headers, authorization: `Bearer ${author.token}` },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation', field: 'image' });
  });

  it('names no field for a refusal of the request as a whole', async () => {
    const res = await as(t.app, author).post('/api/follows', { author_id: author.id });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: 'You cannot follow yourself', code: 'validation' });
  });
});
