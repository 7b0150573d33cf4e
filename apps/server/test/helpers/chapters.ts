import type { FastifyInstance } from 'fastify';
import { as, type TestUser } from './app.ts';

export interface TestChapter {
  id: number;
  book_id: number;
  title: string;
  chapter_order: number;
  is_published: boolean;
  version: number;
}

/** Creates a chapter through the API, optionally published; answers the chapter JSON. */
export async function createChapter(
  app: FastifyInstance,
  user: TestUser,
  bookId: number,
  body: Record<string, unknown> = {},
  options: { published?: boolean } = {},
): Promise<TestChapter> {
  const created = await as(app, user).post(`/api/books/${bookId}/chapters`, body);
  if (created.statusCode !== 201)
    throw new Error(`create chapter failed: ${created.statusCode} ${created.body}`);
  const chapter = created.json<TestChapter>();
  if (!options.published) return chapter;
  const published = await as(app, user).put(`/api/books/${bookId}/chapters/${chapter.id}`, {
    is_published: true,
  });
  if (published.statusCode !== 200) throw new Error(`publish chapter failed: ${published.body}`);
  return published.json<TestChapter>();
}

/** The author's view of a book's chapters as [id, chapter_order] pairs, in reading order. */
export async function chapterOrders(app: FastifyInstance, user: TestUser, bookId: number) {
  const res = await as(app, user).get(`/api/authors/books/${bookId}/chapters`);
  if (res.statusCode !== 200)
    throw new Error(`list chapters failed: ${res.statusCode} ${res.body}`);
  return res.json<{ chapters: TestChapter[] }>().chapters.map((c) => [c.id, c.chapter_order]);
}
