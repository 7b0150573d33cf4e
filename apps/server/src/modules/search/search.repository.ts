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
 * Ids of published books matching the query, best first. A book matches on its own document or
 * on the text of any of its published chapters; metadata matches weigh more than body text.
 */
export async function searchBookIds(
  db: DbHandle,
  q: string,
  page: { limit: number; offset: number },
): Promise<number[]> {
  if (isPostgres(db)) {
    const tsq = toTsQuery(q);
    if (!tsq) return [];
    const rows = await sql<{ book_id: number }>`
      with query as (select to_tsquery('english', ${tsq}) as tsq),
      hits as (
        select bs.book_id, ts_rank(bs.document_tsv, query.tsq) * 4 as score
          from book_search bs, query
         where bs.document_tsv @@ query.tsq
        union all
        select c.book_id, max(ts_rank(c.content_tsv, query.tsq)) as score
          from chapters c, query
         where c.content_tsv @@ query.tsq and c.is_published = 1
         group by c.book_id
      )
      select hits.book_id from hits
        join books b on b.id = hits.book_id and b.is_published = 1
       group by hits.book_id
       order by sum(hits.score) desc, hits.book_id desc
       limit ${page.limit} offset ${page.offset}`.execute(db);
    return rows.rows.map((r) => r.book_id);
  }
  const ftsq = toFtsQuery(q);
  if (!ftsq) return [];
  // bm25() is lower-is-better; negate so both halves add up as "more is better".
  const rows = await sql<{ book_id: number }>`
    with hits as (
      select rowid as book_id, -bm25(book_fts) * 4 as score
        from book_fts where book_fts match ${ftsq}
      union all
      -- bm25() may not be called inside an aggregate; the rank column holds the same bm25 score.
      select c.book_id, max(-chapter_fts.rank) as score
        from chapter_fts join chapters c on c.id = chapter_fts.rowid
       where chapter_fts match ${ftsq} and c.is_published = 1
       group by c.book_id
    )
    select hits.book_id from hits
      join books b on b.id = hits.book_id and b.is_published = 1
     group by hits.book_id
     order by sum(hits.score) desc, hits.book_id desc
     limit ${page.limit} offset ${page.offset}`.execute(db);
  return rows.rows.map((r) => r.book_id);
}
