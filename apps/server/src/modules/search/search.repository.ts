import { sql, type RawBuilder } from 'kysely';
import { isPostgres, type DbHandle } from '../../db/kysely.ts';
import { publishedBookCards } from '../books/books.repository.ts';
import { newestMatchingChapterBooks, phraseTsQuery } from './postgres-chapter-window.repository.ts';
import { chapterMatch, documentMatch, parseSearchQuery, type SearchTerms } from './search-query.ts';

/**
 * Rebuilds the one search document of a book from its title, summary, author names and genres.
 * Called whenever any of those change; chapter text is indexed per chapter by the engine itself.
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

type Page = { limit: number; offset: number };

/**
 * Published books matching the query, best first, with all a book card shows: one statement
 * after the chapter window's (search costs its round trips to the database as much as its work).
 * A book matches on its own document (title, summary, author, genres) or on the text of its
 * published chapters. Books with a document match come first, by relevance among the newest
 * DOCUMENT_WINDOW of them; then books matching in their chapters only, by how many of the newest
 * matching chapters (CHAPTER_WINDOW) are theirs; ties go to the newer book. Quoted phrases are
 * looked up by their word pairs, so a phrase is found in any chapter, however old: FTS5's pairs
 * (migration 0006) on SQLite; on PostgreSQL the keys of id buckets (migrations 0007 and 0008,
 * postgres-chapter-window.repository.ts), which also give the window. Only published chapters
 * are in the chapter index.
 */
export async function searchPublishedBooks(db: DbHandle, q: string, page: Page) {
  const query = parseSearchQuery(q);
  if (query.loose.length === 0 && query.phrases.length === 0) return [];
  const hits = isPostgres(db) ? await postgresHits(db, query) : sqliteHits(query);
  if (!hits) return [];
  return publishedBookCards(db)
    .innerJoin(ranking(db, hits, page).as('ranking'), 'ranking.book_id', 'books.id')
    .orderBy('ranking.document', 'desc')
    .orderBy('ranking.chapters', 'desc')
    .orderBy('books.id', 'desc')
    .execute();
}

/**
 * A page of the published books of the hits (rows of book_id, document relevance, chapter
 * count), best first, with the relevance and count that order them. The hits are ranked per book
 * first; then each book, best first, is probed by id until the page is full (a few hundred books
 * hit, a page needs twenty): hashing every published book instead costs time in proportion to
 * the library. SQLite's CROSS JOIN keeps the ranked books as the outer loop; on PostgreSQL a
 * LATERAL subquery (OFFSET 0 keeps it from being merged into a join) does.
 */
function ranking(db: DbHandle, hits: RawBuilder<unknown>, page: Page) {
  const published = isPostgres(db)
    ? sql`cross join lateral (select 1 from books b
                               where b.id = r.book_id and b.is_published = 1 offset 0) published`
    : sql`cross join books b on b.id = r.book_id and b.is_published = 1`;
  return sql<{ book_id: number; document: number; chapters: number }>`(
    select r.book_id, r.document, r.chapters
      from (select hits.book_id, max(hits.document) as document, max(hits.chapters) as chapters
              from (${hits}) hits
             group by hits.book_id
             order by 2 desc, 3 desc, 1 desc) r ${published}
     order by r.document desc, r.chapters desc, r.book_id desc
     limit ${page.limit} offset ${page.offset})`;
}

/**
 * bm25() is lower-is-better; negated, more is better. Both FTS5 scans walk their documents newest
 * (highest rowid) first and stop at their window, so bm25 is computed for the document window
 * only, and chapter matches are found without scoring. Null when the query cannot match.
 */
function sqliteHits(query: SearchTerms) {
  const documents = documentMatch(query);
  const chapters = chapterMatch(query);
  if (!documents || !chapters) return null;
  return sql`
      select book_id, document, 0 as chapters
        from (select rowid as book_id, -bm25(book_fts) as document
                from book_fts where book_fts match ${documents}
               order by rowid desc limit ${DOCUMENT_WINDOW})
      union all
      select c.book_id, 0 as document, count(*) as chapters
        from (select rowid as id from chapter_fts where chapter_fts match ${chapters}
               order by rowid desc limit ${CHAPTER_WINDOW}) w
        join chapters c indexed by chapters_id_book_published_idx
          on c.id = w.id and c.is_published = 1
       group by c.book_id`;
}

const looseTsQuery = (query: SearchTerms) =>
  sql`plainto_tsquery('english', ${query.loose.join(' ')})`;

/**
 * The document window is taken from the GIN index's matches ("book_id + 0" hides the primary
 * key's order): walking book documents newest first unpacks each one's tsvector, and for a word
 * in a few per cent of them reads thousands (5 ms on L) where the matches are hundreds. Its cost
 * is then the word's matches, at most every book.
 */
async function postgresHits(db: DbHandle, query: SearchTerms) {
  const chapterBooks = await newestMatchingChapterBooks(db, query, CHAPTER_WINDOW);
  const whole = sql.join(
    [
      ...(query.loose.length > 0 ? [looseTsQuery(query)] : []),
      ...query.phrases.map((p) => phraseTsQuery(p.terms)),
    ],
    sql` && `,
  );
  return sql`
      select d.book_id, ts_rank(d.document_tsv, ${whole}) as document, 0 as chapters
        from (select bs.book_id, bs.document_tsv from book_search bs
               where bs.document_tsv @@ (${whole})
               order by bs.book_id + 0 desc limit ${DOCUMENT_WINDOW}) d
      union all
      select w.book_id, 0 as document, count(*) as chapters
        from unnest(${chapterBooks}::int[]) w(book_id)
       group by w.book_id`;
}
