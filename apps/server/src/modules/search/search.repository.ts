import { sql, type RawBuilder } from 'kysely';
import type { Db, DbHandle } from '../../db/kysely.ts';

/**
 * Rebuilds the one search document of a book from its title, summary, author names and genres.
 * Called whenever any of those change; chapter text is indexed per chapter by the search indexer.
 */
export async function refreshBookSearchDocument(db: DbHandle, bookId: number): Promise<void> {
  const book = await db
    .selectFrom('books')
    .innerJoin('users', 'users.id', 'books.author_id')
    .select([
      'books.title',
      'books.summary',
      'users.username',
      'users.first_name',
      'users.last_name',
    ])
    .where('books.id', '=', bookId)
    .executeTakeFirst();
  if (!book) return;
  const genres = await db
    .selectFrom('book_genres')
    .innerJoin('genres', 'genres.id', 'book_genres.genre_id')
    .select('genres.name')
    .where('book_genres.book_id', '=', bookId)
    .execute();
  const document = [
    book.title,
    book.summary,
    book.username,
    book.first_name,
    book.last_name,
    ...genres.map((g) => g.name),
  ]
    .filter(Boolean)
    .join('\n');
  await db
    .insertInto('book_search')
    .values({ book_id: bookId, document })
    .onConflict((oc) => oc.column('book_id').doUpdateSet({ document }))
    .execute();
}

export async function refreshAuthorSearchDocuments(db: DbHandle, authorId: number): Promise<void> {
  const books = await db
    .selectFrom('books')
    .select('id')
    .where('author_id', '=', authorId)
    .execute();
  for (const { id } of books) await refreshBookSearchDocument(db, id);
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
 * The ids of a page of published books, best first, from `hits`: rows of (book_id, document
 * relevance, chapter count). Books with a document match come first, by relevance; then books
 * matching in their chapters only, by how many of the chapter window's matches are theirs; ties
 * go to the newer book. The cards are the books module's (search.service.ts).
 *
 * The hits are ranked per book first; then each book, best first, is checked for publication by
 * id until the page is full (a few hundred books hit, a page needs twenty): hashing every
 * published book instead costs time in proportion to the library. `publishedCheck` is the
 * engine's way of keeping the ranked books the outer loop of that check.
 */
export async function rankedBookIds(
  db: DbHandle,
  hits: RawBuilder<unknown>,
  page: SearchPage,
  publishedCheck: RawBuilder<unknown>,
): Promise<number[]> {
  const { rows } = await sql<{ book_id: number }>`
    select r.book_id
      from (select hits.book_id, max(hits.document) as document, max(hits.chapters) as chapters
              from (${hits}) hits
             group by hits.book_id
             order by 2 desc, 3 desc, 1 desc) r ${publishedCheck}
     order by r.document desc, r.chapters desc, r.book_id desc
     limit ${page.limit} offset ${page.offset}`.execute(db);
  return rows.map((row) => Number(row.book_id));
}

/** How many chapter changes wait for the search indexer (migration 0009's queue). */
export async function countPendingChapters(db: Db): Promise<number> {
  const row = await db
    .selectFrom('search_pending')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Queued changes a round looks through for its chapters (one chapter may have many). */
const PENDING_LOOK_AHEAD = 20;

/**
 * The ids of the `batch` chapters queued longest (migration 0009), as a subquery: one chapter
 * saved many times is taken once, for all its queued changes.
 */
export const oldestPendingChapters = (batch: number) => sql<{ chapter_id: number }>`
  select chapter_id from (select id, chapter_id from search_pending order by id
                           limit ${batch * PENDING_LOOK_AHEAD}) oldest
   group by chapter_id order by min(id) limit ${batch}`;
