import { sql, type RawBuilder } from 'kysely';
import type { DbHandle } from '../../db/kysely.ts';
import type { WindowMatch } from './chapter-window.ts';
import type { SearchTerms } from './search-query.ts';

/**
 * PostgreSQL's chapter window by id buckets (migrations 0007 and 0008, decisions 0018 and 0020;
 * `SEARCH_BUCKET_KEYS=off` switches it off for the plain window of postgres-search.ts).
 *
 * What it buys: GIN keeps a word's chapters in no useful order, so the plain window ("the newest
 * 500 chapters holding the words") visits every chapter that holds them, or walks chapters newest
 * first reading each one's tsvector; both cost time in proportion to the library for a common word,
 * and a phrase of common words checks its position on every candidate. Here each chapter's
 * lexemes, word pairs and triples are also indexed hashed with its bucket of ids, so a query reads
 * only the matches of the buckets it asks for, newest first, and a phrase of up to three lexemes
 * is one key, so a query costs what its window holds, not what the library holds. The cost is
 * two more GIN indexes, many times the size of the tsvector index, and more indexing per chapter,
 * paid by the search indexer after the write (migration 0009). The decisions have the figures.
 */

/**
 * How many consecutive chapter ids share a bucket of migration 0007's keys (2^9 = 512), and of
 * 0008's wide keys (2^14 = 16,384). The indexes hold them: they are fixed by those migrations
 * (test/postgres/search-bucket-widths.test.ts checks the database agrees).
 */
export const CHAPTER_BUCKET_BITS = 9;
export const WIDE_BUCKET_BITS = 14;

/**
 * The newest published chapters matching a query, found through the bucketed keys, with their
 * books.
 *
 * A probe asks the index for the chapters holding every word of the query within a range of
 * buckets (512 consecutive chapter ids each) and reads those matches only. The first probe takes
 * the newest two buckets; a common word fills the window there. Otherwise the matches found so far
 * say how dense the query is, and the next probe reaches back as far as that density says the
 * window needs, with a margin. A query too rare to show up in the newest buckets (or one that
 * keeps falling short) takes the rest from wide buckets (16,384 ids), newest first, which for a
 * rare query hold few matches each: a probe never costs more than its range, and the last step
 * never more than the wide buckets it needs.
 */
export async function newestMatchingChapters(
  db: DbHandle,
  query: SearchTerms,
  window: number,
): Promise<WindowMatch[]> {
  const first = await firstProbe(db, query, window);
  if (first === null) return [];
  const { terms, matches } = first;
  const topBucket = terms.maxChapterId >> CHAPTER_BUCKET_BITS;
  let low = Math.max(0, topBucket - FIRST_PROBE_BUCKETS + 1);
  for (let probes = 1; matches.length < window && low > 0; probes++) {
    const perBucket = matches.length / (topBucket - low + 1);
    // Infinite when nothing was found yet: the query is rare.
    const wanted = Math.ceil(((window - matches.length) / perBucket) * MARGIN);
    if (probes === MAX_PROBES || wanted > Math.min(low, MAX_PROBE_BUCKETS)) {
      matches.push(...(await olderMatches(db, terms, low, window - matches.length)));
      break;
    }
    const high = low - 1;
    low -= wanted;
    matches.push(...(await probe(db, terms, low, high, window - matches.length)));
  }
  return matches;
}

/** Two, because the newest bucket may have only just begun. */
const FIRST_PROBE_BUCKETS = 2;
/** How much further back than the density so far says a probe reaches. */
const MARGIN = 1.5;
/** Probes before the rest is taken from wide buckets: a query whose matches thin out. */
const MAX_PROBES = 3;
/**
 * The widest probe: one wide bucket's worth. A probe looks up each of its keys once per bucket,
 * a wide bucket once for all of them; a query so rare that the window needs more buckets than
 * this has fewer matches in a wide bucket than the window holds, so reading wide buckets newest
 * first costs fewer lookups for the same matches (decision 0020).
 */
const MAX_PROBE_BUCKETS = 1 << (WIDE_BUCKET_BITS - CHAPTER_BUCKET_BITS);

/** A query as PostgreSQL sees it: what its chapters must hold, and how far ids reach. */
interface QueryTerms {
  query: SearchTerms;
  /** The word pairs (migration 0007) of each phrase, in order; none for a one-word phrase. */
  pairs: string[][];
  /** The word triples (migration 0008) of each phrase, in order; none below three lexemes. */
  triples: string[][];
  /** Lexemes of the words not found through pairs (loose ones, one-word phrases'). */
  unpairedLexemes: string[];
  maxChapterId: number;
}

/**
 * Asks PostgreSQL's own parser, stemmer and stop words what the query's lexemes and phrase pairs
 * are, as the index holds a chapter's, and the newest chapter id; and, in the same statement (a
 * round trip to the database costs as much as a probe), makes the first probe: the newest two
 * buckets, where a common query fills its window. Null when nothing can match: only stop words,
 * or no chapter.
 */
async function firstProbe(
  db: DbHandle,
  query: SearchTerms,
  window: number,
): Promise<{ terms: QueryTerms; matches: WindowMatch[] } | null> {
  // Every key stands for itself in a chapter of the bucket, so a chapter of one of the two
  // buckets matches when it holds all keys hashed with its own bucket.
  const holdsAllKeysOf = (bucket: RawBuilder<unknown>) =>
    sql`inkwell_search_keys(c.content_tsv, c.chapter_id) @> array(
      select hashtextextended(k.key, ${bucket}) from query_key k)`;
  // A phrase's pairs are known here only as PostgreSQL sees them: the check is skipped in the
  // statement when the phrase has fewer than two pairs (see positionChecks).
  const checks = query.phrases.map(
    (p, i) => sql`case when (select cardinality(pairs) from phrase where n = ${i + 1}) > 1
      then ${positionCheck(p.terms)} else true end`,
  );
  const { rows } = await sql<{
    pairs: string[][];
    triples: string[][];
    lexemes: string[];
    max_id: number | null;
    matches: WindowMatch[];
  }>`
    with phrase as (
      select t.n, t.phrase, inkwell_phrase_gram_texts(to_tsvector('english', t.phrase)) as pairs,
             inkwell_phrase_triple_texts(to_tsvector('english', t.phrase)) as triples
        from unnest(${query.phrases.map((p) => p.terms.join(' '))}::text[]) with ordinality t(phrase, n)
    ), unpaired as (
      select concat_ws(' ', ${query.loose.join(' ')}::text,
                       (select string_agg(phrase, ' ') from phrase where cardinality(pairs) = 0)) as text
    ), terms as (
      select tsvector_to_array(to_tsvector('english', unpaired.text)) as lexemes,
             (select max(chapter_id) from chapter_search) as max_id
        from unpaired
    ), query_key as (
      select unnest(lexemes) as key from terms
      union all select unnest(pairs) from phrase
    )
    select coalesce((select json_agg(pairs order by n) from phrase), '[]') as pairs,
           coalesce((select json_agg(triples order by n) from phrase), '[]') as triples,
           terms.lexemes,
           terms.max_id,
           coalesce((select json_agg(w) from (${newestCandidates(
             window,
             [
               sql`exists (select 1 from query_key)`,
               sql`(${holdsAllKeysOf(sql`terms.max_id >> ${CHAPTER_BUCKET_BITS}`)}
                 or ${holdsAllKeysOf(sql`(terms.max_id >> ${CHAPTER_BUCKET_BITS}) - 1`)})`,
             ],
             checks,
           )}) w), '[]') as matches
      from terms`.execute(db);
  const row = rows[0]!;
  if (row.max_id === null || (row.lexemes.length === 0 && row.pairs.flat().length === 0))
    return null;
  return {
    terms: {
      query,
      pairs: row.pairs,
      triples: row.triples,
      unpairedLexemes: row.lexemes,
      maxChapterId: row.max_id,
    },
    matches: row.matches,
  };
}

export const phraseTsQuery = (terms: readonly string[]) =>
  sql`phraseto_tsquery('english', ${terms.join(' ')})`;

/**
 * A phrase found through one key (its pair, or in wide buckets its triple) is exact; through
 * several, each could sit elsewhere in the chapter, so its positions are checked on the
 * candidate's tsvector. `phraseKeys` are each phrase's keys, in order.
 */
function positionChecks(terms: QueryTerms, phraseKeys: string[][]) {
  return terms.query.phrases
    .filter((_, i) => phraseKeys[i]!.length > 1)
    .map((p) => positionCheck(p.terms));
}

const positionCheck = (phraseTerms: readonly string[]) =>
  sql`ts_match_vq(v.content_tsv, ${phraseTsQuery(phraseTerms)})`;

/**
 * The newest `limit` matches among the chapters of buckets `low` to `high`: those holding, within
 * the range, every unpaired lexeme and every phrase pair (which stand for their own words).
 */
function probe(db: DbHandle, terms: QueryTerms, low: number, high: number, limit: number) {
  const keys = [...terms.unpairedLexemes, ...terms.pairs.flat()].map(
    (key) => sql`inkwell_search_keys(c.content_tsv, c.chapter_id) && array(
      select hashtextextended(${key}::text, b) from generate_series(${low}::int, ${high}::int) b)`,
  );
  return windowMatches(db, newestCandidates(limit, keys, positionChecks(terms, terms.pairs)));
}

/**
 * The newest `limit` matches below bucket `low`, from migration 0008's wide buckets (32 of the
 * probes' buckets each), newest first, until the limit is reached: a query that needs so many
 * probe buckets has few matches in all, a few hundred in a wide bucket (a query that thinned out
 * after three probes may have more: a wide bucket is read whole, 16,384 chapters at most).
 * A phrase is looked up by its one pair or by its triples: a phrase of three lexemes is its own
 * triple, so only longer phrases are checked for position.
 */
function olderMatches(db: DbHandle, terms: QueryTerms, low: number, limit: number) {
  const below = low << CHAPTER_BUCKET_BITS;
  const phraseKeys = terms.pairs.map((pairs, i) => (pairs.length > 1 ? terms.triples[i]! : pairs));
  const keys = [...terms.unpairedLexemes, ...phraseKeys.flat()];
  const checks = positionChecks(terms, phraseKeys);
  const inBucket = sql`inkwell_wide_search_keys(c.content_tsv, c.chapter_id) @> array(
    select hashtextextended(k, b) from unnest(${keys}::text[]) k)`;
  return windowMatches(
    db,
    sql`select w.chapter_id, w.book_id
          from generate_series((${below}::int - 1) >> ${WIDE_BUCKET_BITS}, 0, -1) b
         cross join lateral (${newestCandidates(limit, [inBucket, sql`c.chapter_id + 0 < ${below}`], checks)}) w
         limit ${limit}`,
  );
}

/**
 * The newest `limit` chapters (with their books) meeting every index condition and then every check.
 * The index conditions order their candidates newest first in a subquery they alone enter
 * ("chapter_id + 0" hides the primary key's order, OFFSET 0 keeps the checks out), because computing the
 * indexed expressions row by row, which the planner could choose while walking the primary key,
 * costs a millisecond a chapter. The checks, which read a chapter's tsvector, then see the
 * candidates newest first, only until the limit is reached.
 */
function newestCandidates(
  limit: number,
  conditions: RawBuilder<unknown>[],
  checks: RawBuilder<unknown>[],
) {
  return sql<WindowMatch>`
    select v.chapter_id, v.book_id
      from (select c.chapter_id, c.book_id, c.content_tsv from chapter_search c
             where ${sql.join(conditions, sql` and `)}
             order by c.chapter_id + 0 desc
             ${checks.length === 0 ? sql`limit ${limit}` : sql``} offset 0) v
     ${checks.length > 0 ? sql`where ${sql.join(checks, sql` and `)}` : sql``}
     limit ${limit}`;
}

async function windowMatches(db: DbHandle, select: RawBuilder<WindowMatch>) {
  return (await select.execute(db)).rows;
}
