import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS_DIR } from '../../../../bench/lib/corpus.ts';
import { countWords } from '../../src/html/words.ts';
import { ZipArchive } from '../../src/modules/imports/parsers/zip.ts';
import { as, createTestApp, signup, type TestApp, type TestUser } from '../helpers/app.ts';
import { importedChapters, importFile, openingLines } from '../helpers/imports.ts';

/**
 * Imports the real EPUBs of the optional corpus (README, "Optional real books"), when present,
 * through the whole pipeline, once, on SQLite, and checks the chapters against each book's own
 * table of contents and its text. Skipped as a whole where the corpus is absent.
 */
const corpusDir = CORPUS_DIR;
const present = fs.existsSync(path.join(corpusDir, 'books.json'));

interface CorpusBook {
  epub: string;
  title: string;
  author: string;
}

/**
 * What each known book's table of contents holds once front and back matter are left out, and
 * the heading lines some chapters open with: the groups (books, parts) that begin there.
 */
const EXPECTED: Record<
  string,
  { count: number; first: string; last: string; opens?: Record<string, string[]> }
> = {
  'alexandre-dumas_the-three-musketeers_william-robson.epub': {
    count: 67,
    first: 'I: The Three Presents of d’Artagnan the Elder',
    last: 'LXVII: Conclusion',
  },
  'charles-dickens_great-expectations.epub': { count: 59, first: 'I', last: 'LIX' },
  'charles-dickens_the-pickwick-papers.epub': { count: 57, first: 'I', last: 'LVII' },
  'fyodor-dostoevsky_crime-and-punishment_constance-garnett.epub': {
    count: 41,
    first: 'Part I: I',
    last: 'Epilogue: II',
    opens: { 'Part I: I': ['Part I'], 'Part VI: I': ['Part VI'], 'Epilogue: I': ['Epilogue'] },
  },
  'h-g-wells_the-war-of-the-worlds.epub': {
    count: 27,
    first: 'I: The Eve of the War',
    last: 'X: The Epilogue',
    opens: {
      'I: The Eve of the War': ['Book I', 'The Coming of the Martians'],
      'I: Under Foot': ['Book II', 'The Earth Under the Martians'],
    },
  },
  'jane-austen_pride-and-prejudice.epub': { count: 61, first: 'I', last: 'LXI' },
  'mary-shelley_frankenstein.epub': {
    count: 29,
    first: 'Letter I',
    last: 'Walton, in Continuation',
  },
};

/** The labels of the EPUB's own table of contents, read with a plain pattern (not the importer's parser). */
async function tocLabels(file: Buffer): Promise<string[]> {
  const zip = await ZipArchive.open(file);
  const navName = zip.names.find((n) => /(toc|nav)\.x?html$/i.test(n));
  if (!navName) return [];
  const nav = await zip.readText(navName);
  const tocNav = /<nav[^>]*epub:type="toc"[^>]*>([\s\S]*?)<\/nav>/.exec(nav)?.[1] ?? nav;
  return [...tocNav.matchAll(/<a\b[^>]*>([\s\S]*?)<\/a>/g)].map((m) =>
    m[1]!
      .replace(/<[^>]+>/g, '')
      .replace(/&amp;/g, '&')
      .replace(/\s+/g, ' ')
      .trim(),
  );
}

/**
 * Words of the story's text: every file whose body the producer marked as body matter (the
 * corpus's books all do), notes' reference marks aside, read with plain patterns.
 */
async function bodyWords(file: Buffer): Promise<number> {
  const zip = await ZipArchive.open(file);
  let total = 0;
  for (const name of zip.names.filter((n) => /\.x?html$/i.test(n))) {
    const body = /<body([^>]*)>([\s\S]*)<\/body>/.exec(await zip.readText(name));
    if (!body || !/bodymatter/.test(body[1]!)) continue;
    total += countWords(
      body[2]!
        .replace(/<a[^>]*noteref[^>]*>[\s\S]*?<\/a>/g, '')
        .replace(/<[^>]+>/g, ' ')
        .replace(/&#?\w+;/g, ' '),
    );
  }
  return total;
}

describe.skipIf(!present)('importing the shared corpus of real EPUBs', () => {
  // Where the corpus is absent one placeholder case keeps the (skipped) suite from being empty.
  const books: CorpusBook[] = present
    ? JSON.parse(fs.readFileSync(path.join(corpusDir, 'books.json'), 'utf8'))
    : [{ epub: 'corpus absent', title: '', author: '' }];
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    user = await signup(t.app);
  });
  afterAll(() => t?.close());

  it.each(books.map((b) => [b.epub, b] as const))(
    '%s',
    { timeout: 120_000 },
    async (_name, book) => {
      const file = fs.readFileSync(path.join(corpusDir, book.epub));
      const job = await importFile(t.app, user, file, book.epub, {}, 120_000);
      expect(job, job.message).toMatchObject({
        status: 'done',
        source_title: book.title,
        source_author: book.author,
      });

      const imported = (await as(t.app, user).get(`/api/books/${job.book_id}`)).json();
      expect(imported.title).toBe(book.title);
      expect(imported.cover).not.toBeNull();
      const chapters = await importedChapters(t.app, user, job.book_id!);
      const titles = chapters.map((c) => c.title);

      // No text lost or doubled: the chapters hold the story's words, give or take 2%.
      const story = await bodyWords(file);
      const total = chapters.reduce((sum, c) => sum + c.word_count, 0);
      expect(Math.abs(total - story) / story, `${total} words imported of ${story}`).toBeLessThan(
        0.02,
      );

      // Every chapter is an entry of the book's table of contents, in its order (a bare number
      // under a part carries the part's name: "Part I: I").
      const labels = await tocLabels(file);
      let cursor = 0;
      for (const title of titles) {
        const own =
          title.includes(': ') && !labels.includes(title)
            ? title.slice(title.lastIndexOf(': ') + 2)
            : title;
        const found = labels.indexOf(own, cursor);
        expect(found, `"${title}" in table-of-contents order`).toBeGreaterThanOrEqual(cursor);
        cursor = found + 1;
      }
      expect(
        chapters.every((c) => c.word_count > 100),
        'every chapter holds text',
      ).toBe(true);

      const expected = EXPECTED[book.epub];
      if (expected) {
        expect(titles).toHaveLength(expected.count);
        expect(titles[0]).toBe(expected.first);
        expect(titles.at(-1)).toBe(expected.last);
        for (const [title, lines] of Object.entries(expected.opens ?? {})) {
          const chapter = chapters.find((c) => c.title === title);
          expect(openingLines(chapter!.content, lines.length), title).toEqual(lines);
        }
      }
    },
  );
});
