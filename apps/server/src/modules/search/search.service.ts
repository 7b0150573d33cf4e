import type { AppContext } from '../../context.ts';
import { presentBooks } from '../books/books.service.ts';
import { listPublishedBooksByIds } from '../books/books.repository.ts';
import { searchBookIds } from './search.repository.ts';

/** Ranked full-text search; any input answers a (possibly empty) list, never an error. */
export async function searchBooks(
  ctx: AppContext,
  query: { q: string; limit: number; offset: number },
) {
  const ids = await searchBookIds(ctx.db, query.q, query);
  const rows = await listPublishedBooksByIds(ctx.db, ids);
  const rank = new Map(ids.map((id, index) => [id, index]));
  rows.sort((a, b) => (rank.get(a.id) ?? 0) - (rank.get(b.id) ?? 0));
  return presentBooks(ctx.db, rows);
}
