import { published } from '../../access/visibility.ts';
import { sql } from 'kysely';
import type { DbHandle } from '../../db/kysely.ts';

/** Authors ranked by follows, counting only those made since `since` when it is given. */
export async function authorsByFollowers(db: DbHandle, options: { since?: string; limit: number }) {
  let query = db
    .selectFrom('follows')
    .select(['author_id', sql<number>`count(*)`.as('followers')])
    .groupBy('author_id');
  if (options.since !== undefined) query = query.where('created_at', '>=', options.since);
  const rows = await query
    .orderBy('followers', 'desc')
    .orderBy('author_id', 'asc')
    .limit(options.limit)
    .execute();
  return rows.map((r) => r.author_id);
}

/**
 * Authors whose first published book came out on or after `debutSince`, ranked by distinct readers
 * of their published books since `readSince`. An author reading their own book does not count.
 */
export async function risingAuthors(
  db: DbHandle,
  options: { debutSince: string; readSince: string; limit: number },
) {
  const rows = await db
    .selectFrom('read_history')
    .innerJoin('books', 'books.id', 'read_history.book_id')
    .select(['books.author_id', sql<number>`count(distinct read_history.user_id)`.as('readers')])
    .where(published('books'))
    .where('read_history.read_at', '>=', options.readSince)
    .whereRef('read_history.user_id', '!=', 'books.author_id')
    .where('books.author_id', 'in', (eb) =>
      eb
        .selectFrom('books as debut')
        .select('debut.author_id')
        .where(published('debut'))
        .groupBy('debut.author_id')
        .having((h) => h.fn.min('debut.published_at'), '>=', options.debutSince),
    )
    .groupBy('books.author_id')
    .orderBy('readers', 'desc')
    .orderBy('books.author_id', 'asc')
    .limit(options.limit)
    .execute();
  return rows.map((r) => r.author_id);
}
