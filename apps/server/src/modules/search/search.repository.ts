import { sql, type RawBuilder } from 'kysely';
import { isPostgres, type DbHandle } from '../../db/kysely.ts';
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
 * Ids of published books matching the query, best first. A book matches on its own document
 * (title, summary, author, genres) or on the text of its published chapters. Books with a
 * document match come first, by relevance among the newest DOCUMENT_WINDOW of them; then books
 * matching in their chapters only, by how many of the newest matching chapters (CHAPTER_WINDOW)
 * are theirs; ties go to the newer book. Quoted phrases are looked up by their word pairs
 * (migration 0006), so a phrase is found in any chapter, however old. Only published chapters
 * are in the chapter index.
 */
export async function searchBookIds(db: DbHandle, q: string, page: Page): Promise<number[]> {
  const query = parseSearchQuery(q);
  if (query.loose.length === 0 && query.phrases.length === 0) return [];
  return isPostgres(db) ? postgresSearch(db, query, page) : sqliteSearch(db, query, page);
}

async function sqliteSearch(db: DbHandle, query: SearchTerms, page: Page): Promise<number[]> {
  const documents = documentMatch(query);
  const chapters = chapterMatch(query);
  if (!documents || !chapters) return [];
  // bm25() is lower-is-better; negated, more is better. Both FTS5 scans walk their documents
  // newest (highest rowid) first and stop at their window, so bm25 is computed for the
  // document window only, and chapter matches are found without scoring.
  const rows = await sql<{ book_id: number }>`
    with hits as (
      select book_id, document, 0 as chapters
        from (select rowid as book_id, -bm25(book_fts) as document
                from book_fts where book_fts match ${documents}
               order by rowid desc limit ${DOCUMENT_WINDOW})
      union all
      select c.book_id, 0 as document, count(*) as chapters
        from (select rowid as id from chapter_fts where chapter_fts match ${chapters}
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

const looseTsQuery = (query: SearchTerms) =>
  sql`plainto_tsquery('english', ${query.loose.join(' ')})`;
const phraseTsQuery = (terms: readonly string[]) =>
  sql`phraseto_tsquery('english', ${terms.join(' ')})`;
const allOf = (parts: RawBuilder<unknown>[]) => sql.join(parts, sql` && `);

/**
 * The pairs of lexemes (hashed) of each phrase, as migration 0006's index holds a chapter's:
 * PostgreSQL's own parser, stemmer and stop words decide what they are, so they are asked of it.
 */
async function phraseGramsOf(db: DbHandle, phrases: readonly { terms: string[] }[]) {
  if (phrases.length === 0) return [];
  const { rows } = await sql<{ grams: string[] }>`
    select inkwell_phrase_grams(to_tsvector('english', t.phrase)) as grams
      from unnest(${phrases.map((p) => p.terms.join(' '))}::text[]) with ordinality t(phrase, n)
     order by t.n`.execute(db);
  return rows.map((r) => r.grams);
}

/**
 * Book ids of the newest CHAPTER_WINDOW chapters matching the query, on PostgreSQL. Without
 * phrase pairs the query is written out where it is used (not in a CTE) so the planner sees how
 * common its words are: for a common word it walks chapters newest first and stops at the window;
 * for a rare one it takes the few matches from the GIN index. With pairs, the candidates are the
 * chapters holding every pair, taken from the pairs index alone: ordered newest first in a
 * subquery that only the pairs condition enters ("id + 0" hides the primary key's order, OFFSET 0
 * keeps the checks out), because computing the pairs of a chapter row by row, which the planner
 * would otherwise choose beside a rare word's index, costs a millisecond each. The other words,
 * and phrases of several pairs (which could each sit elsewhere in the chapter), are then checked
 * on the candidates newest first, only until the window is full.
 */
function postgresChapterHits(query: SearchTerms, grams: readonly string[][]) {
  const pairless = query.phrases.filter((_, i) => grams[i]!.length === 0);
  // A phrase of one lexeme (the others stop words) has no pair: its lexeme is matched as a word.
  const words = [
    ...(query.loose.length > 0 ? [looseTsQuery(query)] : []),
    ...pairless.map((p) => phraseTsQuery(p.terms)),
  ];
  const pairs = grams.flat();
  if (pairs.length === 0)
    return sql`select c.book_id from chapters c where c.content_tsv @@ (${allOf(words)})
                order by c.id desc limit ${CHAPTER_WINDOW}`;
  const checks = [
    ...(words.length > 0 ? [sql`v.content_tsv @@ (${allOf(words)})`] : []),
    ...query.phrases
      .filter((_, i) => grams[i]!.length > 1)
      .map((p) => sql`ts_match_vq(v.content_tsv, ${phraseTsQuery(p.terms)})`),
  ];
  return sql`select v.book_id
    from (select c.book_id, c.content_tsv from chapters c
           where c.content_tsv is not null
             and inkwell_phrase_grams(c.content_tsv) @> ${pairs}::bigint[]
           order by c.id + 0 desc
           ${checks.length === 0 ? sql`limit ${CHAPTER_WINDOW}` : sql``} offset 0) v
    ${checks.length > 0 ? sql`where ${sql.join(checks, sql` and `)}` : sql``}
    limit ${CHAPTER_WINDOW}`;
}

async function postgresSearch(db: DbHandle, query: SearchTerms, page: Page): Promise<number[]> {
  const chapterHits = postgresChapterHits(query, await phraseGramsOf(db, query.phrases));
  const whole = allOf([
    ...(query.loose.length > 0 ? [looseTsQuery(query)] : []),
    ...query.phrases.map((p) => phraseTsQuery(p.terms)),
  ]);
  const rows = await sql<{ book_id: number }>`
    with hits as (
      select d.book_id, ts_rank(d.document_tsv, ${whole}) as document, 0 as chapters
        from (select bs.book_id, bs.document_tsv from book_search bs
               where bs.document_tsv @@ (${whole})
               order by bs.book_id desc limit ${DOCUMENT_WINDOW}) d
      union all
      select w.book_id, 0 as document, count(*) as chapters from (${chapterHits}) w
       group by w.book_id
    )
    -- Each hit's book is probed by id (OFFSET 0 keeps the subquery from being merged into a
    -- join): hashing every published book instead costs time in proportion to the library.
    select hits.book_id from hits
      cross join lateral (select 1 from books b
                           where b.id = hits.book_id and b.is_published = 1 offset 0) published
     group by hits.book_id
     order by max(hits.document) desc, max(hits.chapters) desc, hits.book_id desc
     limit ${page.limit} offset ${page.offset}`.execute(db);
  return rows.rows.map((r) => r.book_id);
}
