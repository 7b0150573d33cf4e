import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { AppContext } from '../../src/context.ts';
import { as } from './app.ts';

/**
 * Ids of the books a visitor's search answers, in order; `page` is appended to the URL. Chapter
 * text is indexed a moment after it is written (migration 0009): this waits for the indexer
 * first, as a reader searching a second later would find it, and for the planner's statistics.
 */
export async function searchIds(
  t: { app: FastifyInstance; ctx: AppContext },
  q: string,
  page = '',
): Promise<number[]> {
  await t.ctx.searchIndexer.flush();
  // Statistics as autovacuum would leave them after a load: plans must hold with them.
  await sql`analyze`.execute(t.ctx.db);
  const res = await as(t.app).get(`/api/books/search?q=${encodeURIComponent(q)}${page}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ books: { id: number }[] }>().books.map((b) => b.id);
}
