/**
 * What PostgreSQL's search-key functions cost a chapter, before and after migration 0023 (one
 * pass for a chapter's pairs and triples, keys not made unique before GIN). Each published
 * chapter the search indexer writes evaluates both key functions, and an index build evaluates
 * one of them for every chapter. `npm run bench:search-keys` (about two minutes).
 *
 * Two fresh databases, one migrated up to 0022 and one to the latest version, get the same 400
 * chapters of about 2,600 words (the corpus's books cut into chapters; generated English without
 * it) as tsvectors; the functions are timed over all of them, then each key index is built.
 * Medians of runs alternated between the two databases.
 */
import crypto from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import { createDb, type Db } from '../apps/server/src/db/kysely.ts';
import { migrateTo, migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { loadCorpus } from './lib/corpus.ts';
import { admin, POSTGRES_ADMIN_URL } from './lib/databases.ts';
import { seededRandom } from './lib/random.ts';

const CHAPTERS = 400;
const CHAPTER_WORDS = 2_600;

/** The corpus's books cut into chapters of about CHAPTER_WORDS words, as many as CHAPTERS. */
async function chapterTexts(): Promise<string[]> {
  const corpus = await loadCorpus(seededRandom(23));
  if (corpus.books.every((book) => book.length === 0)) throw new Error('The corpus has no text');
  const texts: string[] = [];
  let current: string[] = [];
  let words = 0;
  while (texts.length < CHAPTERS) {
    for (const book of corpus.books) {
      for (const paragraph of book) {
        current.push(paragraph.text);
        words += paragraph.words;
        if (words < CHAPTER_WORDS) continue;
        texts.push(current.join('\n'));
        current = [];
        words = 0;
        if (texts.length === CHAPTERS) return texts;
      }
    }
  }
  return texts;
}

interface Case {
  name: string;
  runs: number;
  statement: RawBuilder<unknown>;
  /** Run after each timed run, untimed. */
  cleanup?: RawBuilder<unknown>;
}

const dropIndex = sql`drop index keys_bench_idx`;
const CASES: Case[] = [
  {
    name: 'inkwell_search_keys, per chapter',
    runs: 5,
    statement: sql`select sum(cardinality(inkwell_search_keys(doc, chapter_id))) from keys_bench`,
  },
  {
    name: 'inkwell_wide_search_keys, per chapter',
    runs: 5,
    statement: sql`select sum(cardinality(inkwell_wide_search_keys(doc, chapter_id))) from keys_bench`,
  },
  {
    name: 'build of the keys index, per chapter',
    runs: 3,
    statement: sql`create index keys_bench_idx on keys_bench
      using gin (inkwell_search_keys(doc, chapter_id))`,
    cleanup: dropIndex,
  },
  {
    name: 'build of the wide keys index, per chapter',
    runs: 3,
    statement: sql`create index keys_bench_idx on keys_bench
      using gin (inkwell_wide_search_keys(doc, chapter_id))`,
    cleanup: dropIndex,
  },
];

/** A run's time in milliseconds; the cleanup after it is not timed. */
async function timed(db: Db, c: Case): Promise<number> {
  const started = performance.now();
  await c.statement.execute(db);
  const elapsed = performance.now() - started;
  await c.cleanup?.execute(db);
  return elapsed;
}

const medianOf = (times: number[]) => times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;

/** A fresh database at `version` holding the chapters' tsvectors. */
async function database(texts: string[], version: 'before' | 'after') {
  const name = `inkwell_bench_keys_${version}_${crypto.randomBytes(4).toString('hex')}`;
  await admin((client) => client.query(`create database ${name}`));
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  const db = createDb(url.toString());
  if (version === 'before') await migrateTo(db, '0022_comment_notices_index');
  else await migrateToLatest(db);
  await sql`create table keys_bench (chapter_id integer primary key, doc tsvector not null)`.execute(
    db,
  );
  // Ids spread over many buckets, as in a library of 100,000 chapters.
  for (const [i, text] of texts.entries()) {
    await sql`insert into keys_bench values (${1 + i * 250}, to_tsvector('english', ${text}))`.execute(
      db,
    );
  }
  await sql`analyze keys_bench`.execute(db);
  return {
    db,
    drop: async () => {
      await db.destroy();
      await admin((client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}

const texts = await chapterTexts();
const before = await database(texts, 'before');
const after = await database(texts, 'after');
try {
  console.log(
    `${CHAPTERS} chapters of about ${CHAPTER_WORDS} words; milliseconds per chapter, median`,
  );
  console.log('| measurement | before 0023 | after 0023 | ratio |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const c of CASES) {
    // Alternated, so that a busy moment of the machine falls on both alike.
    const times = { before: [] as number[], after: [] as number[] };
    for (let i = 0; i < c.runs; i++) {
      times.before.push(await timed(before.db, c));
      times.after.push(await timed(after.db, c));
    }
    const [was, is] = [medianOf(times.before) / CHAPTERS, medianOf(times.after) / CHAPTERS];
    console.log(`| ${c.name} | ${was.toFixed(2)} | ${is.toFixed(2)} | ${(was / is).toFixed(2)}× |`);
  }
} finally {
  await before.drop();
  await after.drop();
}
