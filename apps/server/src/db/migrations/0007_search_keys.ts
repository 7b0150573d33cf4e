import { sql, type Kysely } from 'kysely';

type Engine = 'sqlite' | 'postgres';

/**
 * How many consecutive chapter ids share a bucket of the search keys below: 2^9 = 512. Fixed by
 * this migration (the index holds it); a different width needs a new migration that rebuilds
 * the index.
 */
const CHAPTER_BUCKET_BITS = 9;

/**
 * PostgreSQL: the newest chapters matching a query without unpacking every candidate's tsvector
 * (docs/decisions/0018-search-keys-by-id-bucket.md). GIN keeps a word's chapters in no useful
 * order, so the newest matches of a common word were found by walking chapters newest first and
 * reading each one's ~10 KB tsvector out of TOAST, and those of a mid-frequency word or pair by
 * visiting and sorting all of its matches. This index holds each published chapter's lexemes and
 * word pairs (0006's pairs, as text) hashed together with its bucket of ids: a query asks for its
 * words and pairs within a range of buckets, newest first, and reads only that range's matches.
 * 0006's pairs index stays for what lies beyond a few hundred buckets: a rare phrase's few
 * matches anywhere (until migration 0008's wide buckets took that over). SQLite's FTS5 keeps each
 * term's chapters in rowid order already and needs nothing.
 *
 * No statistics (as for 0006's pairs): the search query chooses this index explicitly, and
 * ANALYZE would otherwise compute the keys of every sampled chapter. The statements may be run
 * ahead on a large library (the index CONCURRENTLY), so they tolerate finding their objects.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== 'postgres') return;
  // A pair is two lexemes with the distance between them (stop words leave gaps, as in a tsquery
  // phrase); it holds spaces, which no lexeme does, so pairs and words cannot share a key.
  await sql`create or replace function inkwell_phrase_gram_texts(doc tsvector) returns text[]
    language sql immutable strict parallel safe as $$
      select coalesce(array_agg(distinct g.gram), '{}')
        from (select l.lexeme || ' ' || (lead(l.pos) over w - l.pos) || ' ' || lead(l.lexeme) over w as gram
                from (select u.lexeme, p.pos from unnest(doc) u, unnest(u.positions) p(pos)) l
              window w as (order by l.pos, l.lexeme)) g
       where g.gram is not null
    $$`.execute(db);
  await sql`create or replace function inkwell_search_keys(doc tsvector, chapter_id integer) returns bigint[]
    language sql immutable strict parallel safe as $$
      select coalesce(array_agg(hashtextextended(k.key, chapter_id >> ${sql.lit(CHAPTER_BUCKET_BITS)})), '{}')
        from (select unnest(tsvector_to_array(doc)) union all select unnest(public.inkwell_phrase_gram_texts(doc))) k(key)
    $$`.execute(db);
  await sql`create index if not exists chapters_search_keys_idx on chapters
    using gin (inkwell_search_keys(content_tsv, id)) where content_tsv is not null`.execute(db);
  await sql`alter index chapters_search_keys_idx alter column 1 set statistics 0`.execute(db);
}
