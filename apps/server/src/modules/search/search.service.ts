import type { AppContext } from '../../context.ts';
import { listPublishedBooksByIds } from '../books/books.service.ts';

/** Ranked full-text search; any input answers a (possibly empty) list, never an error. */
export async function searchBooks(
  ctx: AppContext,
  query: { q: string; limit: number; offset: number },
) {
  return listPublishedBooksByIds(ctx, await ctx.search.searchBookIds(query.q, query));
}
