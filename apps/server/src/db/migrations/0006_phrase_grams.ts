import { sql, type Kysely } from 'kysely';

type Engine = 'sqlite' | 'postgres';

/**
 * Phrase search that does not read every chapter holding the phrase's words
 * (docs/decisions/0015-phrase-search-by-word-pairs.md). Both engines index each published
 * chapter's consecutive word pairs; a phrase is looked up by its own pairs. (Before migration
 * 0009 triggers kept the SQLite index in step; they called a function the application registered
 * on its connections, which no migration now needs.)
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine === 'postgres') await postgres(db);
  else await sqlite(db);
}

/**
 * SQLite: the chapter index becomes contentless with two columns, the text (as before) and its
 * word pairs with their positions, so a phrase is an FTS5 phrase over pairs: exact, and as cheap
 * as its rarest pair. Contentless because the pairs are stored nowhere else; `contentless_delete`
 * lets a chapter be removed by id without handing its old text back. The pairs are computed by the
 * application (modules/search/phrase-grams.ts), so this migration leaves the table empty and the
 * search indexer fills it (migration 0009 queues the chapters already published).
 */
async function sqlite(db: Kysely<unknown>): Promise<void> {
  for (const name of ['chapters_ai', 'chapters_ad', 'chapters_au'])
    await sql.raw(`drop trigger ${name}`).execute(db);
  await sql`drop table chapter_fts`.execute(db);
  await sql`create virtual table chapter_fts using fts5(content_text, phrase_grams,
    content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2')`.execute(db);
}

/**
 * PostgreSQL: GIN keeps no word positions, so a phrase used to recheck the tsvector of every
 * chapter holding all its words. A second GIN index now holds each published chapter's pairs of
 * consecutive lexemes with the distance between them (stop words leave gaps, as in a tsquery
 * phrase), hashed to 64 bits: a phrase's candidates are the few chapters holding all its pairs.
 * Built from the stored tsvector, so the text is not parsed twice. The planner gets no statistics
 * for the expression (statistics 0): gathering them would compute it for thousands of rows on
 * every ANALYZE, and the search query chooses this index explicitly anyway.
 */
async function postgres(db: Kysely<unknown>): Promise<void> {
  await sql`create function inkwell_phrase_grams(doc tsvector) returns bigint[]
    language sql immutable strict parallel safe as $$
      select coalesce(array_agg(distinct hashtextextended(g.gram, 0)), '{}')
        from (select l.lexeme || ' ' || (lead(l.pos) over w - l.pos) || ' ' || lead(l.lexeme) over w as gram
                from (select u.lexeme, p.pos from unnest(doc) u, unnest(u.positions) p(pos)) l
              window w as (order by l.pos, l.lexeme)) g
       where g.gram is not null
    $$`.execute(db);
  await sql`create index chapters_phrase_grams_idx on chapters
    using gin (inkwell_phrase_grams(content_tsv)) where content_tsv is not null`.execute(db);
  await sql`alter index chapters_phrase_grams_idx alter column 1 set statistics 0`.execute(db);
}
