import type { AppContext } from '../../context.ts';
import { listVisibleBooks } from '../books/books.service.ts';

/** Ranked full-text search; any input answers a (possibly empty) list, never an error. */
export async function searchBooks(
  ctx: AppContext,
  query: { q: string; limit: number; offset: number },
) {
  // Visitors' cards: search answers the same to everyone (its answer is cached as a public read).
  return listVisibleBooks(ctx, null, await ctx.search.searchBookIds(query.q, query));
}
