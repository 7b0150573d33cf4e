import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/kysely.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { oldLibrary } from '../helpers/old-library.ts';
import { prose } from '../helpers/prose.ts';

// Migration 0023 replaces the search-key functions without rebuilding their indexes. That holds
// only if each new function gives, for every document, the same set of keys as the one it
// replaces (GIN holds the set), and the phrase functions exactly the same arrays: computed here
// with migrations 0007/0008's own functions, then again after 0023, on the same documents.

const KEY_SETS = sql`
  select d.id,
         inkwell_phrase_gram_texts(d.doc) as pairs,
         inkwell_phrase_triple_texts(d.doc) as triples,
         array(select distinct k from unnest(inkwell_search_keys(d.doc, d.chapter_id)) k order by 1)::text[] as keys,
         array(select distinct k from unnest(inkwell_wide_search_keys(d.doc, d.chapter_id)) k order by 1)::text[] as wide_keys
    from grams_fixture d order by d.id`;

interface KeySets {
  id: number;
  pairs: string[];
  triples: string[];
  keys: string[];
  wide_keys: string[];
}

let database: TestDatabase;
let db: Db;
let before: KeySets[];

beforeAll(async () => {
  database = await createTestDatabase('postgres');
  const old = await oldLibrary(database, '0022_comment_notices_index');
  await sql`create table grams_fixture (id serial primary key, chapter_id integer not null,
    doc tsvector)`.execute(old);
  const text = prose(23);
  // Chapter ids in several buckets of both widths: the keys are hashed with the id's bucket.
  const chapterIds = [1, 511, 512, 9_000, 16_384, 70_001];
  for (const [i, chapterId] of chapterIds.entries()) {
    await sql`insert into grams_fixture (chapter_id, doc)
      values (${chapterId}, to_tsvector('english', ${text.chapter(800 + i * 900).text}))`.execute(
      old,
    );
  }
  // Documents at the edges: stop words' gaps, words split into several lexemes, several lexemes
  // at one position (and at the last position a tsvector keeps), no positions, one lexeme, none.
  for (const doc of [
    `to_tsvector('english', 'The well-known cat, the cat and the hat: a-b-c of it all.')`,
    `'a:1 b:1 c:1 d:2'::tsvector`,
    `'x:16383 y:16383 z:16383 w:16382'::tsvector`,
    `strip(to_tsvector('english', 'cat sat on the mat'))`,
    `'lonely:4'::tsvector`,
    `''::tsvector`,
    `null::tsvector`,
  ]) {
    await sql`insert into grams_fixture (chapter_id, doc) values (600, ${sql.raw(doc)})`.execute(
      old,
    );
  }
  before = (await KEY_SETS.execute(old)).rows as KeySets[];
  await old.destroy();

  db = createDb(database.url);
  await migrateToLatest(db);
});
afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

it('the fixture gives each function something to compare', () => {
  const prosed = before.slice(0, 6);
  for (const row of prosed) {
    expect(row.pairs.length).toBeGreaterThan(100);
    expect(row.triples.length).toBeGreaterThan(100);
    expect(row.keys.length).toBeGreaterThan(row.pairs.length);
    expect(row.wide_keys.length).toBeGreaterThan(row.keys.length);
  }
});

it('keeps every key set and every phrase array of migrations 0007 and 0008', async () => {
  const after = (await KEY_SETS.execute(db)).rows as KeySets[];
  expect(after).toEqual(before);
});

it('replaced the functions, strict and at the cost migration 0009 gave them', async () => {
  const { rows } = await sql<{ name: string; cost: number; strict: boolean; body: string }>`
    select p.proname as name, p.procost::float8 as cost, p.proisstrict as strict,
           pg_get_functiondef(p.oid) as body
      from pg_proc p
     where p.proname in ('inkwell_phrase_gram_texts', 'inkwell_phrase_triple_texts',
                         'inkwell_search_keys', 'inkwell_wide_search_keys')
     order by 1`.execute(db);
  expect(rows.map((r) => r.name)).toEqual([
    'inkwell_phrase_gram_texts',
    'inkwell_phrase_triple_texts',
    'inkwell_search_keys',
    'inkwell_wide_search_keys',
  ]);
  for (const row of rows) {
    expect(row.body).toContain('inkwell_search_grams(doc)');
    expect(row.cost).toBe(100_000);
    // As 0007 and 0008 made them: a chapter without a document has no keys (null), not none.
    expect(row.strict).toBe(true);
  }
});
