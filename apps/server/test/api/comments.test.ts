import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createBook, createTestApp, signup, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function publishedChapter(content = '<p>One</p><p>Two</p><p>Three</p>') {
  const author = await signup(t.app);
  const book = await createBook(t.app, author, `Book ${author.username}`, { published: true });
  const created = await as(t.app, author).post(`/api/books/${book.id}/chapters`, {
    title: 'Chapter one',
    content,
  });
  expect(created.statusCode).toBe(201);
  const chapter = created.json();
  const published = await as(t.app, author).put(`/api/books/${book.id}/chapters/${chapter.id}`, {
    is_published: true,
  });
  expect(published.statusCode).toBe(200);
  return { author, book, chapter };
}

describe('smoke', () => {
  it('posts and lists', async () => {
    const { chapter } = await publishedChapter();
    const reader = await signup(t.app);
    const res = await as(t.app, reader).post(`/api/chapters/${chapter.id}/comments`, {
      body: '<p>Hello <b>there</b></p>',
      paragraph: 1,
    });
    expect(res.statusCode).toBe(201);
    const list = await as(t.app).get(`/api/chapters/${chapter.id}/comments`);
    expect(list.statusCode).toBe(200);
    console.log(list.body);
    const counts = await as(t.app).get(`/api/chapters/${chapter.id}/comment-counts`);
    console.log(counts.body);
    const ch = await as(t.app, reader).get(`/api/chapters/${chapter.id}`);
    console.log(JSON.stringify({ ...ch.json(), content: undefined }));
  });
});
