import type { AppContext } from '../../context.ts';
import { toBook } from '../../presenters/book.ts';
import { searchPublishedBooks } from './search.repository.ts';

/** Ranked full-text search; any input answers a (possibly empty) list, never an error. */
export async function searchBooks(
  ctx: AppContext,
  query: { q: string; limit: number; offset: number },
) {
  return (await searchPublishedBooks(ctx.searchDb, query.q, query)).map(toBook);
}
