import type { SearchSort } from '@inkwell/contract';
import { tagKey } from '@inkwell/contract/tags';
import { sortColumn } from '../../access/book-filters.ts';
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import { publicChapter, published } from '../../access/visibility.ts';
import { isPostgres, type Db, type DbHandle } from '../../db/kysely.ts';

/** Queued book changes one round takes (one book may be queued many times). */
const BOOK_ROUND_LOOK_AHEAD = 20;

/**
 * Rebuilds the search documents (title, summary, author names, genres, tags) of the books queued
 * longest (migration 0011), and removes those of books no longer published: the index holds
 * what anyone may read only (migration 0025). Queue rows are deleted by their own ids before the
 * books are read, so a change committed meanwhile keeps its row and is seen by the next round. On
 * PostgreSQL the caller holds the indexer's advisory lock: two processes writing one book's
 * document could otherwise leave the older text last.
 */
export async function refreshPendingBookDocuments(db: DbHandle, batch: number): Promise<number> {
  const picked = await db
    .selectFrom('search_pending_books')
    .select(['id', 'book_id'])
    .orderBy('id')
    .limit(batch * BOOK_ROUND_LOOK_AHEAD)
    .execute();
  if (picked.length === 0) return 0;
  await db
    .deleteFrom('search_pending_books')
    .where(
      'id',
      'in',
      picked.map((p) => p.id),
    )
    .execute();
  const bookIds = [...new Set(picked.map((p) => p.book_id))];
  const books = await db
    .selectFrom('books')
    .innerJoin('users', 'users.id', 'books.author_id')
    .select([
      'books.id',
      'books.title',
      'books.summary',
      'users.username',
      'users.first_name',
      'users.last_name',
    ])
    .where('books.id', 'in', bookIds)
    .where(published('books'))
    .execute();
  const drafts = bookIds.filter((id) => !books.some((book) => book.id === id));
  if (drafts.length > 0)
    await db.deleteFrom('book_search').where('book_id', 'in', drafts).execute();
  if (books.length === 0) return picked.length;
  const genres = await db
    .selectFrom('book_genres')
    .innerJoin('genres', 'genres.id', 'book_genres.genre_id')
    .select(['book_genres.book_id', 'genres.name'])
    .where('book_genres.book_id', 'in', bookIds)
    .orderBy('genres.id')
    .execute();
  // Tags too (issue 21): searching a tag's name finds its books.
  const tags = await db
    .selectFrom('book_tags')
    .innerJoin('tags', 'tags.id', 'book_tags.tag_id')
    .select(['book_tags.book_id', 'tags.name'])
    .where('book_tags.book_id', 'in', bookIds)
    .orderBy('book_tags.position')
    .execute();
  // Each book's genres, then its tags.
  const labels = new Map<number, string[]>();
  for (const { book_id, name } of [...genres, ...tags])
    labels.set(book_id, [...(labels.get(book_id) ?? []), name]);
  const documents = books.map((book) => ({
    book_id: book.id,
    document: [
      book.title,
      book.summary,
      book.username,
      book.first_name,
      book.last_name,
      ...(labels.get(book.id) ?? []),
    ]
      .filter(Boolean)
      .join('\n'),
  }));
  await db
    .insertInto('book_search')
    .values(documents)
    .onConflict((oc) =>
      oc.column('book_id').doUpdateSet((eb) => ({ document: eb.ref('excluded.document') })),
    )
    .execute();
  return picked.length;
}

/**
 * How many of the newest matching chapters a query looks at. A common word is in nearly every
 * chapter; ranking all of them costs time in proportion to the whole library, so body-text matches
 * are taken from this window only (docs/decisions/0009-bounded-search.md).
 */
export const CHAPTER_WINDOW = 500;

/**
 * How many of the newest matching book documents are ranked by relevance. A common word is in the
 * summaries of thousands of books on a large library, and scoring each costs a lookup of its
 * length (docs/decisions/0015-phrase-search-by-word-pairs.md).
 */
export const DOCUMENT_WINDOW = 300;

export type SearchPage = { limit: number; offset: number };

/**
 * A query that is exactly a tag's name finds every book with that tag (issue 21), ranked above
 * every text match, newest first among them: hits rows as the engines' own, from the tag's key.
 * Not windowed (a tag lists its books on its index), and the only hits of a query without words,
 * such as an emoji tag. Empty when no tag has that name.
 */
export function tagHits(q: string): RawBuilder<unknown> {
  return sql`
      select bt.book_id, 1000000000 as document, 0 as chapters
        from tags t join book_tags bt on bt.tag_id = t.id
       where t.key = ${tagKey(q)}`;
}

/** Which ranked books a search keeps (a condition on the book row under the given alias), and their order. */
export interface SearchOrder {
  where?: (books: string) => Expression<SqlBool>;
  sort?: SearchSort;
}

/**
 * The ids of a page of published books, best first, from `hits`: rows of (book_id, document
 * relevance, chapter count). Books with a document match come first, by relevance; then books
 * matching in their chapters only, by how many of the chapter window's matches are theirs; ties
 * go to the newer book. Another `sort` orders the same books by that column instead. The cards
 * are the books module's (search.service.ts).
 *
 * The hits are ranked per book first; then each book, best first, is checked for publication and
 * the list's filters by id until the page is full (a few hundred books hit, a page needs twenty):
 * hashing every published book instead costs time in proportion to the library. Each engine keeps
 * the ranked books the outer loop of that check its own way: SQLite never reorders a CROSS JOIN;
 * on PostgreSQL a LATERAL subquery does it (OFFSET 0 keeps the planner from merging it).
 */
export async function rankedBookIds(
  db: DbHandle,
  hits: RawBuilder<unknown>,
  page: SearchPage,
  order: SearchOrder = {},
): Promise<number[]> {
  const where = order.where?.('b') ?? sql<SqlBool>`1 = 1`;
  const sort = order.sort ?? 'relevance';
  const key = sort === 'relevance' ? sql`0` : sortColumn(sort, 'b');
  const postgres = isPostgres(db);
  const kept = postgres
    ? sql`cross join lateral (select ${key} as sort_key from books b
                               where b.id = r.book_id and ${published('b')} and ${where}
                              offset 0) k`
    : sql`cross join books b on b.id = r.book_id and ${published('b')} and ${where}`;
  const orderBy =
    sort === 'relevance'
      ? sql`r.document desc, r.chapters desc, r.book_id desc`
      : sql`${postgres ? sql`k.sort_key` : key} desc, r.book_id desc`;
  const { rows } = await sql<{ book_id: number }>`
    select r.book_id
      from (select hits.book_id, max(hits.document) as document, max(hits.chapters) as chapters
              from (${hits}) hits
             group by hits.book_id
             order by 2 desc, 3 desc, 1 desc) r ${kept}
     order by ${orderBy}
     limit ${page.limit} offset ${page.offset}`.execute(db);
  return rows.map((row) => Number(row.book_id));
}

/** How many changes wait for the search indexer: chapters (migration 0009) and books (0011). */
export async function countPendingChanges(db: Db): Promise<number> {
  const count = async (table: 'search_pending' | 'search_pending_books') => {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  return (await count('search_pending')) + (await count('search_pending_books'));
}

/** Queued changes a round looks through for its chapters (one chapter may have many). */
const PENDING_LOOK_AHEAD = 20;

/**
 * The ids of the `batch` chapters queued longest (migration 0009), as a subquery: one chapter
 * saved many times is taken once, for all its queued changes. `resting` leaves out the chapters
 * that wait for their next turn (SearchIndexer); their queue rows stay for a later round. A
 * chapter no longer public (unpublished, deleted, its book unpublished) never rests: taking its
 * entry out costs nothing, and a round that raced its change may have left one
 * (postgres-search.ts).
 */
export const oldestPendingChapters = (
  batch: number,
  resting: readonly number[],
  postgres: boolean,
) => {
  const notResting = postgres
    ? sql`chapter_id <> all(${resting}::int[])`
    : sql`chapter_id not in (select value from json_each(${JSON.stringify(resting)}))`;
  const awake =
    resting.length === 0
      ? sql``
      : sql`where ${notResting} or not exists (
          select 1 from chapters c join books b on b.id = c.book_id
           where c.id = search_pending.chapter_id and ${publicChapter('c', 'b')})`;
  return sql<{ chapter_id: number }>`
    select chapter_id from (select id, chapter_id from search_pending ${awake} order by id
                             limit ${batch * PENDING_LOOK_AHEAD}) oldest
     group by chapter_id order by min(id) limit ${batch}`;
};
