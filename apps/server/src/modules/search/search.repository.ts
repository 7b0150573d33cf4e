import { sql } from 'kysely';
import { isPostgres, type DbHandle } from '../../db/kysely.ts';

/**
 * Rebuilds the one search document of a book from its title, summary, author names and genres.
 * Called whenever any of those change; chapter text is indexed per chapter by the engine itself.
 */
export async function refreshBookSearchDocument(db: DbHandle, bookId: number): Promise<void> {
  const book = await db
    .selectFrom('books')
    .innerJoin('users', 'users.id', 'books.author_id')
    .select(['books.title', 'books.summary', 'users.username', 'users.first_name', 'users.last_name'])
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
  const books = await db.selectFrom('books').select('id').where('author_id', '=', authorId).execute();
  for (const { id } of books) await refreshBookSearchDocument(db, id);
}

/** Words of the query, as the engines' tokenizers would see them (letters and digits). */
export function queryTerms(q: string): string[] {
  return [...q.normalize('NFKC').matchAll(/[\p{L}\p{N}]+/gu)].map((m) => m[0]).slice(0, 32);
}

/** Quoted phrases ("...") in the query; each must appear as written. */
function queryPhrases(q: string): string[][] {
  return [...q.matchAll(/"([^"]+)"/g)].map((m) => queryTerms(m[1] ?? '')).filter((p) => p.length > 1);
}

/**
 * FTS5 query text built only from word characters, each term quoted, so no user input can be
 * read as FTS syntax. Terms are ANDed; quoted phrases stay phrases.
 */
export function toFtsQuery(q: string): string | null {
  const phrases = queryPhrases(q);
  const inPhrases = new Set(phrases.flat().map((t) => t.toLowerCase()));
  const loose = queryTerms(q).filter((t) => !inPhrases.has(t.toLowerCase()));
  const parts = [
    ...phrases.map((p) => `"${p.join(' ')}"`),
    ...loose.map((t) => `"${t}"`),
  ];
  return parts.length > 0 ? parts.join(' AND ') : null;
}

/** tsquery source for to_tsquery: terms ANDed, phrases with <->; only word characters pass. */
function toTsQuery(q: string): string | null {
  const phrases = queryPhrases(q);
  const inPhrases = new Set(phrases.flat().map((t) => t.toLowerCase()));
  const loose = queryTerms(q).filter((t) => !inPhrases.has(t.toLowerCase()));
  const parts = [...phrases.map((p) => `(${p.join(' <-> ')})`), ...loose];
  return parts.length > 0 ? parts.join(' & ') : null;
}

/**
 * How many of the newest matching chapters a query looks at. A common word is in nearly every
 * chapter; ranking all of them costs time in proportion to the whole library, so body-text matches
 * are taken from this window only (docs/decisions/0009-bounded-search.md).
 */
export const CHAPTER_WINDOW = 500;

/**
 * A phrase is looked for in the text of the newest PHRASE_SPAN chapters (by id) only. Checking a
 * phrase means reading word positions in every chapter that holds all its words; when those words
 * are common that is every chapter, and a rare phrase of common words would read them all
 * (seconds on a large library). Book documents are searched for phrases without this bound.
 */
export const PHRASE_SPAN = 20_000;

/**
 * Ids of published books matching the query, best first. A book matches on its own document
 * (title, summary, author, genres) or on the text of its published chapters. Books with a
 * document match come first, by relevance; then books matching in their chapters only, by how
 * many of the newest matching chapters (CHAPTER_WINDOW) are theirs; ties go to the newer book.
 * Phrases are matched in the newest PHRASE_SPAN chapters' text. Only published chapters are in
 * the chapter index (migration 0004).
 */
export async function searchBookIds(
  db: DbHandle,
  q: string,
  page: { limit: number; offset: number },
): Promise<number[]> {
  if (isPostgres(db)) {
    const tsq = toTsQuery(q);
    if (!tsq) return [];
    // The query is written out where it is used (not in a CTE) so the planner sees how common
    // its words are: for a common word it walks chapters newest first and stops at the window;
    // for a rare one it takes the few matches from the GIN index. A phrase's rarity it cannot
    // judge (it counts each word alone), so a phrase always starts from the index ("id + 0"
    // hides the primary key's order), which bounds the work by the chapters holding every word.
    const query = sql`to_tsquery('english', ${tsq})`;
    const hasPhrase = queryPhrases(q).length > 0;
    const newestFirst = hasPhrase ? sql`c.id + 0 desc` : sql`c.id desc`;
    const span = hasPhrase
      ? sql`and c.id > (select coalesce(max(id), 0) from chapters) - ${PHRASE_SPAN}`
      : sql``;
    const rows = await sql<{ book_id: number }>`
      with hits as (
        select bs.book_id, ts_rank(bs.document_tsv, ${query}) as document, 0 as chapters
          from book_search bs
         where bs.document_tsv @@ ${query}
        union all
        select w.book_id, 0 as document, count(*) as chapters
          from (select c.book_id from chapters c
                 where c.content_tsv @@ ${query} ${span}
                 order by ${newestFirst} limit ${CHAPTER_WINDOW}) w
         group by w.book_id
      )
      select hits.book_id from hits
        join books b on b.id = hits.book_id and b.is_published = 1
       group by hits.book_id
       order by max(hits.document) desc, max(hits.chapters) desc, hits.book_id desc
       limit ${page.limit} offset ${page.offset}`.execute(db);
    return rows.rows.map((r) => r.book_id);
  }
  const ftsq = toFtsQuery(q);
  if (!ftsq) return [];
  // FTS5 seeks a rowid range in its document lists, so the phrase span costs nothing to apply.
  const span =
    queryPhrases(q).length > 0
      ? sql`and rowid > (select coalesce(max(id), 0) from chapters) - ${PHRASE_SPAN}`
      : sql``;
  // bm25() is lower-is-better; negated, more is better. FTS5 walks a term's documents newest
  // (highest rowid) first and stops at the window, without scoring the rest.
  const rows = await sql<{ book_id: number }>`
    with hits as (
      select rowid as book_id, -bm25(book_fts) as document, 0 as chapters
        from book_fts where book_fts match ${ftsq}
      union all
      select c.book_id, 0 as document, count(*) as chapters
        from (select rowid as id from chapter_fts where chapter_fts match ${ftsq} ${span}
               order by rowid desc limit ${CHAPTER_WINDOW}) w
        join chapters c indexed by chapters_id_book_idx on c.id = w.id
       group by c.book_id
    )
    -- CROSS JOIN keeps the hits as the outer loop: probing every published book instead
    -- would cost time in proportion to the library.
    select hits.book_id from hits
      cross join books b on b.id = hits.book_id and b.is_published = 1
     group by hits.book_id
     order by max(hits.document) desc, max(hits.chapters) desc, hits.book_id desc
     limit ${page.limit} offset ${page.offset}`.execute(db);
  return rows.rows.map((r) => r.book_id);
}
