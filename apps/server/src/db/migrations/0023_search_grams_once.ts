import { sql, type Kysely } from 'kysely';

type Engine = 'sqlite' | 'postgres';

/** The bucket widths of migrations 0007 and 0008, which their indexes hold; unchanged here. */
const CHAPTER_BUCKET_BITS = 9;
const WIDE_BUCKET_BITS = 14;

/**
 * PostgreSQL: a chapter's word pairs and triples are made in one pass, and the search keys are
 * hashed without first being made unique. The key functions of migrations 0007 and 0008 are
 * evaluated for every published chapter the indexer writes and for every chapter an index build
 * reads, and they spent most of their time making the same pairs twice (the wide keys made the
 * pairs, then the triples over the same sorted positions), joining each lexeme to its positions
 * with a lateral unnest, and sorting the texts to drop duplicates that GIN drops anyway.
 * `npm run bench:search-keys` (bench/README.md, 2026-11-30): 3.2 → 1.9 ms a chapter for the
 * keys, 3.9 → 1.9 ms for the wide keys.
 *
 * The indexes need no rebuild. A GIN index on an array holds the set of its elements, and each
 * new key function gives the same set as the one it replaces (test/postgres/search-grams.test.ts
 * compares them with 0007's and 0008's bodies); only the order and repeats inside the array
 * differ, which neither the index nor `@>` and `&&` see. `inkwell_phrase_gram_texts` and
 * `inkwell_phrase_triple_texts`, which the search statement applies to a query's phrases, give
 * exactly what they gave, sorted and unique.
 *
 * The cost stays that of migration 0009 (milliseconds a chapter; a replaced function would
 * otherwise fall back to the default cost and plans that compute keys row by row).
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== 'postgres') return;

  // One row for each lexeme position but the last: the pair that starts there and the triple,
  // null at the end of the text. A pair is two lexemes with the distance between them (stop words
  // leave gaps, as in a tsquery phrase); it holds spaces, which no lexeme does, so pairs and words
  // cannot share a key. Not strict, so that PostgreSQL may inline it into its callers.
  await sql`create function inkwell_search_grams(doc tsvector) returns table (pair text, triple text)
    language sql immutable parallel safe as $$
      select g.pair, g.pair || ' ' || g.second_gap || ' ' || g.third
        from (select l.lexeme || ' ' || (lead(l.pos) over w - l.pos) || ' ' || lead(l.lexeme) over w as pair,
                     lead(l.pos, 2) over w - lead(l.pos) over w as second_gap,
                     lead(l.lexeme, 2) over w as third
                from (select u.lexeme, unnest(u.positions) as pos from unnest(doc) u) l
              window w as (order by l.pos, l.lexeme)) g
       where g.pair is not null
    $$`.execute(db);

  await sql`create or replace function inkwell_phrase_gram_texts(doc tsvector) returns text[]
    language sql immutable strict parallel safe cost 100000 as $$
      select coalesce(array_agg(distinct g.pair), '{}') from public.inkwell_search_grams(doc) g
    $$`.execute(db);
  await sql`create or replace function inkwell_phrase_triple_texts(doc tsvector) returns text[]
    language sql immutable strict parallel safe cost 100000 as $$
      select coalesce(array_agg(distinct g.triple), '{}') from public.inkwell_search_grams(doc) g
       where g.triple is not null
    $$`.execute(db);

  await sql`create or replace function inkwell_search_keys(doc tsvector, chapter_id integer) returns bigint[]
    language sql immutable strict parallel safe cost 100000 as $$
      select array(select hashtextextended(u.lexeme, chapter_id >> ${sql.lit(CHAPTER_BUCKET_BITS)}) from unnest(doc) u
                   union all
                   select hashtextextended(g.pair, chapter_id >> ${sql.lit(CHAPTER_BUCKET_BITS)})
                     from public.inkwell_search_grams(doc) g)
    $$`.execute(db);
  await sql`create or replace function inkwell_wide_search_keys(doc tsvector, chapter_id integer) returns bigint[]
    language sql immutable strict parallel safe cost 100000 as $$
      select array(select hashtextextended(u.lexeme, chapter_id >> ${sql.lit(WIDE_BUCKET_BITS)}) from unnest(doc) u
                   union all
                   select hashtextextended(k.gram, chapter_id >> ${sql.lit(WIDE_BUCKET_BITS)})
                     from (select unnest(array[g.pair, g.triple]) as gram
                             from public.inkwell_search_grams(doc) g) k
                    where k.gram is not null)
    $$`.execute(db);
}
