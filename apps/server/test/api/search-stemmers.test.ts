import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS_DIR, loadCorpus } from '../../../../bench/lib/corpus.ts';
import { seededRandom } from '../../../../bench/lib/random.ts';
import { isPostgres } from '../../src/db/kysely.ts';
import { foldWord } from '../../src/html/word-folding.ts';
import { as, createBook, createTestApp, signup, type TestApp } from '../helpers/app.ts';
import { createChapter } from '../helpers/chapters.ts';

/**
 * A search snippet marks the words the engine matched (issue 21): the server stems each word as
 * the engine's index does (modules/search/stemmers.ts). Checked here against the engine itself,
 * on words of every common ending, and on the optional corpus's whole vocabulary where present.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Words with the endings English stemmers take apart, and a few they leave alone. */
const WORDS = (
  'house houses housing housed run running runner runs happy happiness happily happier ' +
  'precedent preceded precede precedence probability probable probably possibility ' +
  'general generous generously generalization national nationally nationalism relational ' +
  'conditional hopeful hopefully hoping hoped hopes hopeless restful rested resting ' +
  'discerning discernment terrifically terrific iniquity iniquities ponies pony skies sky ' +
  'flying flies fly crying cried agreed agreement feed feeding sensibility sensible ' +
  'adjustable adjustment dependent dependence electrical electricity formalize formality ' +
  'activate activation effective effectiveness callousness digitizer operator revival ' +
  'controlling rolling filing failing caresses ponies ties caress cats Monday always days ' +
  'café naïve Béarn résumé 1984 x as is us the The and of what Whom ourselves nor'
).split(' ');

/** How the engine under test stems each word: PostgreSQL's to_tsvector, SQLite's FTS5 tokenizer. */
async function engineStems(words: readonly string[]): Promise<Map<string, string[]>> {
  const db = t.ctx.db;
  if (isPostgres(db)) {
    const { rows } = await sql<{ w: string; lexemes: string[] }>`
      select w, tsvector_to_array(to_tsvector('english', w)) as lexemes
        from unnest(${words}::text[]) w`.execute(db);
    return new Map(rows.map((row) => [row.w, row.lexemes]));
  }
  // The tokenizer the chapter index was made with, from the database's own schema.
  const { rows } = await sql<{ sql: string }>`
    select sql from sqlite_master where name = 'chapter_fts'`.execute(db);
  const tokenizer = /tokenize\s*=\s*'[^']*'/.exec(rows[0]!.sql)![0];
  const probe = new Database(':memory:');
  try {
    probe.exec(`create virtual table f using fts5(t, ${tokenizer});
                create virtual table v using fts5vocab(f, 'instance');`);
    const insert = probe.prepare('insert into f (rowid, t) values (?, ?)');
    probe.transaction(() => words.forEach((word, i) => insert.run(i + 1, word)))();
    const stems = new Map<string, string[]>(words.map((word) => [word, []]));
    for (const row of probe.prepare('select doc, term from v').all() as Array<{
      doc: number;
      term: string;
    }>)
      stems.get(words[row.doc - 1]!)!.push(row.term);
    return stems;
  } finally {
    probe.close();
  }
}

/**
 * Words the engine and the server stem alike, of those the engine keeps as one lexeme, and words
 * one of them leaves out of the index (a stop word) and the other does not.
 */
async function agreement(words: readonly string[]) {
  const stems = await engineStems(words);
  const stem = t.ctx.search.stem;
  const compared = words.filter((word) => stems.get(word)?.length === 1);
  // The server's stems are without accents (the snippet compares words without them).
  const differ = compared.filter(
    (word) => stem(word.toLowerCase()) !== foldWord(stems.get(word)![0]!),
  );
  const leftOut = words.filter(
    (word) => (stems.get(word)?.length === 0) !== (stem(word.toLowerCase()) === ''),
  );
  return { compared: compared.length, differ, leftOut };
}

describe("the server's stemmer", () => {
  it("stems as the engine's index does", async () => {
    const { compared, differ, leftOut } = await agreement([...new Set(WORDS)]);
    // PostgreSQL leaves its stop words out.
    expect(compared).toBeGreaterThan(WORDS.length * 0.8);
    expect(differ).toEqual([]);
    expect(leftOut).toEqual([]);
  });

  const corpusPresent = fs.existsSync(path.join(CORPUS_DIR, 'books.json'));
  it.skipIf(!corpusPresent)(
    'stems every word of the corpus as the engine does',
    async () => {
      const corpus = await loadCorpus(seededRandom(1));
      const vocabulary = new Set<string>();
      for (const book of corpus.books)
        for (const paragraph of book)
          for (const word of paragraph.text.match(/\p{L}+/gu) ?? []) vocabulary.add(word);
      const { compared, differ, leftOut } = await agreement([...vocabulary]);
      expect(compared).toBeGreaterThan(20_000);
      expect(differ).toEqual([]);
      expect(leftOut).toEqual([]);
    },
    120_000,
  );
});

describe('a snippet of a word the engine matched in another form', () => {
  it('marks the form the chapter holds', async () => {
    const author = await signup(t.app);
    // A word of this test only, so that the search finds this book alone.
    const tag = `zq${process.pid.toString(36).replace(/[0-9]/g, 'x')}`;
    const book = await createBook(t.app, author, `Forms ${tag}`, { published: true });
    const chapter = await createChapter(
      t.app,
      author,
      book.id,
      {
        title: 'Forms',
        content:
          '<p>Nothing to see.</p><p>It preceded the storm.</p>' +
          '<p>Her happiness grew.</p><p>Quite probable.</p>' +
          `<p>The word ${tag} ends it.</p>`,
      },
      { published: true },
    );
    await t.ctx.searchIndexer.flush();
    const expected: Array<[string, number, string]> = [
      ['precedent', 1, 'It <mark>preceded</mark> the storm.'],
      ['happy', 2, 'Her <mark>happiness</mark> grew.'],
      ['probability', 3, 'Quite <mark>probable</mark>.'],
    ];
    for (const [query, paragraph, snippet] of expected) {
      const res = await as(t.app).get(
        `/api/books/search?q=${encodeURIComponent(`${query} ${tag}`)}`,
      );
      expect(res.statusCode, res.body).toBe(200);
      const hits = res.json<{ books: Array<{ id: number; match: unknown }> }>().books;
      expect(
        hits.map((hit) => hit.id),
        query,
      ).toEqual([book.id]);
      expect(hits[0]!.match, query).toEqual({
        chapter_id: chapter.id,
        chapter_title: 'Forms',
        paragraph,
        snippet,
      });
    }
  });
});
