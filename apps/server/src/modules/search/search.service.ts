import type { AppContext } from '../../context.ts';
import { toBook } from '../../presenters/book.ts';

/** Ranked full-text search; any input answers a (possibly empty) list, never an error. */
export async function searchBooks(
  ctx: AppContext,
  query: { q: string; limit: number; offset: number },
) {
  return (await ctx.search.searchBooks(query.q, query)).map(toBook);
}
