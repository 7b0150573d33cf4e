import { sql, type Kysely } from 'kysely';

type Engine = 'sqlite' | 'postgres';

/**
 * How many consecutive chapter ids share a bucket of the wide search keys below: 2^14 = 16,384
 * (32 of 0007's buckets). Fixed by this migration (the index holds it); a different width needs a
 * new migration that rebuilds the index.
 */
const WIDE_BUCKET_BITS = 14;

/**
 * PostgreSQL: the newest chapters of a query too rare for 0007's probes, without visiting all of
 * its matches or unpacking a tsvector per match (docs/decisions/0020-wide-search-keys.md). Such a
 * query took every match from an unbucketed index (the tsvector's for words, 0006's pairs for
 * phrases), each a table row to visit before the newest few hundred were kept, and a phrase of
 * three words checked its position on each candidate's tsvector out of TOAST.
 *
 * This index holds each published chapter's lexemes, word pairs and word triples (as 0007's
 * pairs: lexemes with the distances between them), hashed with a wide bucket of ids. A rare
 * query's chapters are read one wide bucket at a time, newest first, until its window is full;
 * a phrase of up to three lexemes is one key, so only longer phrases still have their positions
 * checked. It takes over from 0006's pairs index, which is dropped.
 *
 * No statistics, as for 0006 and 0007: the search query chooses this index explicitly, and
 * ANALYZE would otherwise compute the keys of every sampled chapter. The statements may be run
 * ahead on a large library (the index CONCURRENTLY), so they tolerate finding their objects.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== 'postgres') return;
  // Three lexemes in a row with the distances between them, as inkwell_phrase_gram_texts (0007)
  // makes pairs.
  await sql`create or replace function inkwell_phrase_triple_texts(doc tsvector) returns text[]
    language sql immutable strict parallel safe as $$
      select coalesce(array_agg(distinct g.gram), '{}')
        from (select l.lexeme || ' ' || (lead(l.pos) over w - l.pos) || ' ' || lead(l.lexeme) over w
                     || ' ' || (lead(l.pos, 2) over w - lead(l.pos) over w) || ' ' || lead(l.lexeme, 2) over w
                     as gram
                from (select u.lexeme, p.pos from unnest(doc) u, unnest(u.positions) p(pos)) l
              window w as (order by l.pos, l.lexeme)) g
       where g.gram is not null
    $$`.execute(db);
  await sql`create or replace function inkwell_wide_search_keys(doc tsvector, chapter_id integer) returns bigint[]
    language sql immutable strict parallel safe as $$
      select coalesce(array_agg(hashtextextended(k.key, chapter_id >> ${sql.lit(WIDE_BUCKET_BITS)})), '{}')
        from (select unnest(tsvector_to_array(doc))
              union all select unnest(public.inkwell_phrase_gram_texts(doc))
              union all select unnest(public.inkwell_phrase_triple_texts(doc))) k(key)
    $$`.execute(db);
  await sql`create index if not exists chapters_wide_search_keys_idx on chapters
    using gin (inkwell_wide_search_keys(content_tsv, id)) where content_tsv is not null`.execute(
    db,
  );
  await sql`alter index chapters_wide_search_keys_idx alter column 1 set statistics 0`.execute(db);
  await sql`drop index if exists chapters_phrase_grams_idx`.execute(db);
  await sql`drop function if exists inkwell_phrase_grams(tsvector)`.execute(db);
}
