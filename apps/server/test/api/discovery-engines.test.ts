import {
  FILTERED_HIDDEN_HEADER,
  BOOK_RATINGS,
  BOOK_SORTS,
  BOOK_STATUSES,
  CONTENT_WARNING_IDS,
} from '@inkwell/contract/constants';
import { tagKey } from '@inkwell/contract/tags';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  createBook,
  createTestApp,
  signup,
  type TestApp,
  type TestUser,
} from '../helpers/app.ts';
import { createChapter } from '../helpers/chapters.ts';
import { createTestDatabase } from '../helpers/database.ts';

/**
 * Issue 21: both engines answer the same books for the same filters, and the answer is what a
 * plain in-memory model of the filters says. The books are generated (fast-check, one seed per
 * run, printed on failure), written through the API to a SQLite and a PostgreSQL app alike; then
 * generated filter combinations, with saved exclusions, are asked of both.
 */
const TAG_POOL = ['Magic', 'slow burn', 'Found Family', 'Dragons', 'Heist'];
const GENRE_IDS = [1, 2, 3];

interface GeneratedBook {
  author: 0 | 1;
  tags: string[];
  warnings: string[];
  rating: string;
  status: string;
  genre: number | null;
  words: number;
}

const bookArb: fc.Arbitrary<GeneratedBook> = fc.record({
  author: fc.constantFrom(0 as const, 1 as const),
  tags: fc.subarray(TAG_POOL, { maxLength: 3 }),
  warnings: fc.subarray([...CONTENT_WARNING_IDS], { maxLength: 2 }),
  rating: fc.constantFrom(...BOOK_RATINGS),
  status: fc.constantFrom(...BOOK_STATUSES),
  genre: fc.option(fc.constantFrom(...GENRE_IDS), { nil: null }),
  words: fc.constantFrom(0, 3, 8, 20),
});

interface Engine {
  t: TestApp;
  drop: () => Promise<void>;
  authors: TestUser[];
  reader: TestUser;
}

const COMMON = `enginesword${process.pid}`;
const seed = Number(process.env.FC_SEED ?? Date.now() % 1_000_000);
const generated = fc.sample(fc.array(bookArb, { minLength: 24, maxLength: 24 }), {
  seed,
  numRuns: 1,
})[0]!;

async function load(engine: 'sqlite' | 'postgres'): Promise<Engine> {
  const database = await createTestDatabase(engine);
  const t = await createTestApp({}, { database });
  const authors = [await signup(t.app), await signup(t.app)];
  const reader = await signup(t.app);
  for (const [i, book] of generated.entries()) {
    const author = authors[book.author]!;
    const made = await createBook(t.app, author, `${COMMON} ${i}`, { published: true });
    const res = await as(t.app, author).put(`/api/books/${made.id}`, {
      tags: book.tags,
      warnings: book.warnings,
      rating: book.rating,
      status: book.status,
    });
    expect(res.statusCode, res.body).toBe(200);
    if (book.genre !== null)
      await as(t.app, author).post(`/api/books/${made.id}/genres`, { genre_id: book.genre });
    if (book.words > 0) {
      const text = Array.from({ length: book.words }, (_, w) => `w${w}`).join(' ');
      await createChapter(
        t.app,
        author,
        made.id,
        { title: 'c', content: `<p>${text}</p>` },
        { published: true },
      );
    }
  }
  // What no list may count or show: a draft book matching everything, and an unpublished
  // chapter (its words are not the book's) on the first generated book.
  const draft = await createBook(t.app, authors[0]!, `${COMMON} draft`);
  await as(t.app, authors[0]!).put(`/api/books/${draft.id}`, { tags: TAG_POOL.slice(0, 3) });
  await createChapter(t.app, authors[0]!, draft.id, { title: 'd', content: `<p>${COMMON}</p>` });
  const firstAuthor = authors[generated[0]!.author]!;
  const mine = (await as(t.app, firstAuthor).get('/api/my/books')).json() as {
    id: number;
    title: string;
  }[];
  const firstId = mine.find((b) => b.title === `${COMMON} 0`)!.id;
  await createChapter(t.app, firstAuthor, firstId, {
    title: 'unpublished',
    content: `<p>${Array.from({ length: 50 }, () => 'x').join(' ')}</p>`,
  });
  await t.ctx.searchIndexer.flush();
  return { t, drop: () => database.drop(), authors, reader };
}

let engines: Engine[] = [];
let genreNames = new Map<number, string>();
beforeAll(async () => {
  engines = [await load('sqlite'), await load('postgres')];
  const genres = (await as(engines[0]!.t.app).get('/api/genres')).json().genres as {
    id: number;
    name: string;
  }[];
  genreNames = new Map(genres.map((g) => [g.id, g.name]));
}, 120_000);
afterAll(async () => {
  // The apps were given their databases, which closing them leaves: drop them too.
  for (const { t, drop } of engines) {
    await t.close();
    await drop();
  }
});

interface Card {
  id: number;
  author_id: number;
  tags: string[];
  warnings: string[];
  rating: string;
  status: string;
  genres: string[];
  words: number;
  published_at: string;
}

interface Filters {
  tags: string[];
  exclude_tags: string[];
  exclude_warnings: string[];
  rating: string[];
  status: string[];
  genre: number | null;
  min_words: number | null;
  sort: (typeof BOOK_SORTS)[number] | null;
  /** Saved exclusions of the reader asking. */
  saved: {
    exclude_tags: string[];
    exclude_warnings: string[];
    exclude_ratings: string[];
    muted: number[];
  };
  /** A page of the list, compared with the same slice of the whole. */
  page: { limit: number; offset: number };
}

/** Spellings a reader might type: the model must not care about case or spaces. */
const spelled = fc.constantFrom(...TAG_POOL, 'MAGIC', '  slow   burn ', 'no such tag');
const filtersArb: fc.Arbitrary<Filters> = fc.record({
  tags: fc.uniqueArray(spelled, { maxLength: 2, selector: (t) => t.trim().toLowerCase() }),
  exclude_tags: fc.uniqueArray(spelled, { maxLength: 2 }),
  exclude_warnings: fc.subarray([...CONTENT_WARNING_IDS], { maxLength: 2 }),
  rating: fc.subarray([...BOOK_RATINGS], { maxLength: 2 }),
  status: fc.subarray([...BOOK_STATUSES], { maxLength: 2 }),
  genre: fc.option(fc.constantFrom(...GENRE_IDS), { nil: null }),
  min_words: fc.option(fc.constantFrom(0, 4, 8, 21), { nil: null }),
  sort: fc.option(fc.constantFrom(...BOOK_SORTS), { nil: null }),
  saved: fc.record({
    exclude_tags: fc.subarray(TAG_POOL, { maxLength: 1 }),
    exclude_warnings: fc.subarray([...CONTENT_WARNING_IDS], { maxLength: 1 }),
    exclude_ratings: fc.subarray([...BOOK_RATINGS], { maxLength: 1 }),
    muted: fc.subarray([0, 1], { maxLength: 1 }),
  }),
  page: fc.record({
    limit: fc.integer({ min: 1, max: 5 }),
    offset: fc.integer({ min: 0, max: 12 }),
  }),
});

/** The filters, as plain code over the cards. */
function model(all: Card[], f: Filters, authorIds: number[]): Card[] {
  const has = (card: Card, tag: string) => card.tags.some((t) => tagKey(t) === tagKey(tag));
  const kept = all.filter(
    (c) =>
      f.tags.every((tag) => has(c, tag)) &&
      !f.exclude_tags.some((tag) => has(c, tag)) &&
      !f.exclude_warnings.some((w) => c.warnings.includes(w)) &&
      (f.rating.length === 0 || f.rating.includes(c.rating)) &&
      (f.status.length === 0 || f.status.includes(c.status)) &&
      (f.genre === null || c.genres.includes(genreNames.get(f.genre)!)) &&
      (f.min_words === null || c.words >= f.min_words) &&
      !f.saved.exclude_tags.some((tag) => has(c, tag)) &&
      !f.saved.exclude_ratings.includes(c.rating) &&
      !f.saved.exclude_warnings.some((w) => c.warnings.includes(w)) &&
      !f.saved.muted.some((a) => authorIds[a] === c.author_id),
  );
  const sortKey = (c: Card): string | number =>
    f.sort === 'words' ? c.words : f.sort === 'new' || f.sort === null ? c.published_at : 0;
  return kept.sort((a, b) => {
    const ka = sortKey(a);
    const kb = sortKey(b);
    return ka < kb ? 1 : ka > kb ? -1 : b.id - a.id;
  });
}

function queryOf(f: Filters, page = { limit: 100, offset: 0 }): string {
  const params = new URLSearchParams({ limit: String(page.limit), offset: String(page.offset) });
  const list = (name: string, values: string[]) => {
    if (values.length > 0) params.set(name, values.join(','));
  };
  list('tags', f.tags);
  list('exclude_tags', f.exclude_tags);
  list('exclude_warnings', f.exclude_warnings);
  list('rating', f.rating);
  list('status', f.status);
  if (f.genre !== null) params.set('genre', genreNames.get(f.genre)!);
  if (f.min_words !== null) params.set('min_words', String(f.min_words));
  if (f.sort !== null) params.set('sort', f.sort);
  return params.toString();
}

async function ask(engine: Engine, f: Filters) {
  const saved = await as(engine.t.app, engine.reader).put('/api/my/filters', {
    exclude_tags: f.saved.exclude_tags,
    exclude_warnings: f.saved.exclude_warnings,
    exclude_ratings: f.saved.exclude_ratings,
    muted_authors: f.saved.muted.map((a) => engine.authors[a]!.username),
  });
  expect(saved.statusCode, saved.body).toBe(200);
  const query = queryOf(f);
  const list = await as(engine.t.app, engine.reader).get(`/api/books?${query}`);
  expect(list.statusCode, list.body).toBe(200);
  const search = await as(engine.t.app, engine.reader).get(
    `/api/books/search?q=${COMMON}&${query}`,
  );
  expect(search.statusCode, search.body).toBe(200);
  const page = await as(engine.t.app, engine.reader).get(`/api/books?${queryOf(f, f.page)}`);
  expect(page.statusCode, page.body).toBe(200);
  return {
    list: (list.json() as Card[]).map((c) => c.id),
    page: (page.json() as Card[]).map((c) => c.id),
    listHidden: Number(list.headers[FILTERED_HIDDEN_HEADER] ?? 0),
    search: (search.json().books as Card[]).map((c) => c.id),
    searchHidden: search.json().hidden as number,
  };
}

describe('filters on both engines', () => {
  it(`agree with each other and with the model (seed ${seed})`, async () => {
    const cards = (await as(engines[0]!.t.app).get('/api/books?limit=100')).json() as Card[];
    // No draft listed, and only published chapters' words counted.
    expect(cards).toHaveLength(generated.length);
    for (const card of cards as (Card & { title: string })[])
      expect(card.words, card.title).toBe(generated[Number(card.title.split(' ')[1])]!.words);
    const authorIds = engines[0]!.authors.map((a) => a.id);
    expect(engines[1]!.authors.map((a) => a.id)).toEqual(authorIds);
    await fc.assert(
      fc.asyncProperty(filtersArb, async (f) => {
        const [sqlite, postgres] = [await ask(engines[0]!, f), await ask(engines[1]!, f)];
        const expected = model(cards, f, authorIds).map((c) => c.id);
        const unsaved = { exclude_tags: [], exclude_warnings: [], exclude_ratings: [], muted: [] };
        const hidden = model(cards, { ...f, saved: unsaved }, authorIds).length - expected.length;
        for (const answer of [sqlite, postgres]) {
          expect(answer.listHidden).toBe(hidden);
          expect(answer.searchHidden).toBe(hidden);
        }
        const ordered = f.sort === null || f.sort === 'new' || f.sort === 'words';
        const asSet = (ids: number[]) => [...ids].sort((a, b) => a - b);
        expect(asSet(sqlite.list)).toEqual(asSet(expected));
        if (ordered) expect(sqlite.list).toEqual(expected);
        expect(postgres.list).toEqual(sqlite.list);
        // A page is that slice of the whole list (of the model's, where its order is known).
        const slice = (ids: number[]) => ids.slice(f.page.offset, f.page.offset + f.page.limit);
        for (const answer of [sqlite, postgres]) expect(answer.page).toEqual(slice(answer.list));
        if (ordered) expect(sqlite.page).toEqual(slice(expected));
        // Search: every book's title holds the word, so it finds exactly the filtered books.
        expect(asSet(sqlite.search)).toEqual(asSet(expected));
        expect(asSet(postgres.search)).toEqual(asSet(sqlite.search));
        if (f.sort !== null) expect(postgres.search).toEqual(sqlite.search);
      }),
      { numRuns: 60, seed },
    );
  }, 120_000);
});
