import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { as } from './app.ts';

/** Ids of the books a visitor's search answers, in order; `page` is appended to the URL. */
export async function searchIds(app: FastifyInstance, q: string, page = ''): Promise<number[]> {
  const res = await as(app).get(`/api/books/search?q=${encodeURIComponent(q)}${page}`);
  expect(res.statusCode).toBe(200);
  return res.json<{ books: { id: number }[] }>().books.map((b) => b.id);
}
