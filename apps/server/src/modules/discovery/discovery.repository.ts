import type { DbHandle } from '../../db/kysely.ts';
import { published } from '../../access/visibility.ts';

/** Saved exclusions as stored: JSON arrays, muted authors by id. */
export interface SavedFiltersRow {
  exclude_tags: string;
  exclude_warnings: string;
  exclude_ratings: string;
  muted_author_ids: string;
}

export async function findSavedFilters(db: DbHandle, userId: number) {
  return db
    .selectFrom('saved_filters')
    .select(['exclude_tags', 'exclude_warnings', 'exclude_ratings', 'muted_author_ids'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** No exclusions: what a list missing from a reader's first save starts as. */
const NO_FILTERS: SavedFiltersRow = {
  exclude_tags: '[]',
  exclude_warnings: '[]',
  exclude_ratings: '[]',
  muted_author_ids: '[]',
};

/**
 * Saves the lists given and leaves the others as stored, in one statement: two saves of
 * different lists at once both land (a read-then-write of every list would lose one).
 */
export async function saveFilters(
  db: DbHandle,
  userId: number,
  lists: Partial<SavedFiltersRow> & { updated_at: string },
) {
  await db
    .insertInto('saved_filters')
    .values({ user_id: userId, ...NO_FILTERS, ...lists })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(lists))
    .execute();
}

/** Users by id (muted authors back to their usernames), in no particular order. */
export async function usernamesByIds(db: DbHandle, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('users').select(['id', 'username']).where('id', 'in', ids).execute();
}

/** Users by name, case-insensitively (usernames are unique regardless of case). */
export async function usersByUsernames(db: DbHandle, usernames: readonly string[]) {
  if (usernames.length === 0) return [];
  return db
    .selectFrom('users')
    .select(['id', 'username_lower'])
    .where(
      'username_lower',
      'in',
      usernames.map((u) => u.toLowerCase()),
    )
    .execute();
}

/** The ids of the tags among `keys` the site has, by key (a key no tag has is left out). */
export async function tagIdsByKey(
  db: DbHandle,
  keys: readonly string[],
): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  const rows = await db.selectFrom('tags').select(['key', 'id']).where('key', 'in', keys).execute();
  return new Map(rows.map((r) => [r.key, r.id]));
}

/**
 * Tags whose key starts with `prefix` (lower case), with how many published books carry each,
 * most used first.
 */
export async function tagSuggestions(db: DbHandle, prefix: string, limit: number) {
  let query = db
    .selectFrom('tags')
    .innerJoin('book_tags', 'book_tags.tag_id', 'tags.id')
    .innerJoin('books', 'books.id', 'book_tags.book_id')
    .select(['tags.name', (eb) => eb.fn.countAll<number>().as('books')])
    .where(published('books'));
  // substr counts characters (code points) on both engines; JS's length counts UTF-16 units,
  // two for an emoji.
  const characters = [...prefix].length;
  if (characters > 0)
    query = query.where((eb) =>
      eb(eb.fn('substr', ['tags.key', eb.val(1), eb.val(characters)]), '=', prefix),
    );
  const rows = await query
    .groupBy(['tags.id', 'tags.name'])
    .orderBy('books', 'desc')
    // Ties by the tag's first use: the same on both engines (a name's order is PostgreSQL's
    // collation's, SQLite's by bytes), so the same ten come back from either.
    .orderBy('tags.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ name: r.name, books: Number(r.books) }));
}
