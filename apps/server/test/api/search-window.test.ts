import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAPTER_WINDOW } from '../../src/modules/search/search.repository.ts';
import {
  as,
  createBook,
  createTestApp,
  signup,
  type TestApp,
  type TestUser,
} from '../helpers/app.ts';
import { insertPublishedChapters } from '../helpers/rows.ts';
import { searchIds as searchAppIds } from '../helpers/search.ts';

// Chapter text counts through the newest CHAPTER_WINDOW matching chapters (decision 0009).
// PostgreSQL finds them by probing ranges of chapter ids newest first, reaching back as far as
// the matches seen so far say (decision 0018); these cases place the matches so that the window
// is found by the first probe, by further ones, and by the unbucketed indexes after the probes.
let t: TestApp;
let author: TestUser;

beforeAll(async () => {
  // These cases check which chapters the window holds, not how fast: the test ids are sparse, so a
  // long phrase probes a few thousand id ranges, which under a busy CI machine can outlast the
  // production statement timeout (2 s, tested in postgres/search-pool.test.ts).
  t = await createTestApp({ SEARCH_TIMEOUT_MS: '30000' });
  author = await signup(t.app);
});
afterAll(() => t.close());

const searchIds = (q: string) => searchAppIds(t, q, '&limit=100');

const book = (title: string) => createBook(t.app, author, title, { published: true });

describe('the window of newest matching chapters', () => {
  it.each([
    { word: 'marrowlight', spacing: 1, firstId: 1_000_000 },
    { word: 'duskwhistle', spacing: 40, firstId: 2_000_000 },
    { word: 'emberquill', spacing: 2_000, firstId: 10_000_000 },
  ])(
    'holds exactly the newest matches of "$word", one match every $spacing ids',
    async ({ word, spacing, firstId }) => {
      // Newest first: most of the window is one book's, its oldest match another's, and the
      // matches just past the window a third book's, which must not be found.
      const [most, edge, beyond] = [
        await book(`Most ${word}`),
        await book(`Edge ${word}`),
        await book(`Beyond ${word}`),
      ];
      const matches = CHAPTER_WINDOW + 100;
      const idOf = (newestFirst: number) => firstId + (matches - 1 - newestFirst) * spacing;
      const chapters = (from: number, to: number) =>
        Array.from({ length: to - from }, (_, i) => ({
          id: idOf(from + i),
          text: `the ${word} of chapter ${from + i}`,
        }));
      await insertPublishedChapters(t.ctx.db, beyond.id, chapters(CHAPTER_WINDOW, matches));
      await insertPublishedChapters(
        t.ctx.db,
        edge.id,
        chapters(CHAPTER_WINDOW - 1, CHAPTER_WINDOW),
      );
      await insertPublishedChapters(t.ctx.db, most.id, chapters(0, CHAPTER_WINDOW - 1));
      // The titles hold the word too; a title match ranks first, so search the text alone by a
      // second word that only the chapters share with it.
      expect(await searchIds(`${word} chapter`)).toEqual([most.id, edge.id]);
    },
  );

  it("takes a hit's match from the window: its first chapter in reading order there", async () => {
    // The split book's chapters all match, in id order; all but its newest two are pushed out of
    // the window by a newer book's, so its match is the older of those two on both engines, not
    // its first chapter (decision 0031).
    const [split, crowd] = [await book('Split'), await book('Crowd')];
    const id = (i: number) => 60_000_000 + i;
    await insertPublishedChapters(
      t.ctx.db,
      split.id,
      Array.from({ length: 10 }, (_, i) => ({ id: id(i), text: `the quillmarrow ${i}` })),
    );
    await insertPublishedChapters(
      t.ctx.db,
      crowd.id,
      Array.from({ length: CHAPTER_WINDOW - 2 }, (_, i) => ({
        id: id(10 + i),
        text: 'a quillmarrow',
      })),
    );
    await searchIds('quillmarrow');
    const res = await as(t.app).get('/api/books/search?q=quillmarrow');
    const hits = res.json<{ books: { id: number; match: { chapter_id: number } | null }[] }>();
    expect(hits.books.map((b) => [b.id, b.match?.chapter_id])).toEqual([
      [crowd.id, id(10)],
      [split.id, id(8)],
    ]);
  });

  it('requires every word in the same chapter, however common each is alone', async () => {
    const [apart, together] = [await book('Apart'), await book('Together')];
    const spread = (text: string, offset: number) =>
      Array.from({ length: CHAPTER_WINDOW + 50 }, (_, i) => ({
        id: 20_000_000 + i * 7 + offset,
        text,
      }));
    await insertPublishedChapters(t.ctx.db, together.id, [
      { id: 19_900_000, text: 'sloe and quince' },
    ]);
    await insertPublishedChapters(t.ctx.db, apart.id, [
      ...spread('sloe alone', 0),
      ...spread('quince alone', 3),
    ]);
    expect(await searchIds('sloe quince')).toEqual([together.id]);
    expect(await searchIds('quince')).toEqual([apart.id]);
  });

  it('finds phrases and loose words together in a chapter far older than their other matches', async () => {
    const [newer, older] = [await book('Newer'), await book('Older')];
    await insertPublishedChapters(t.ctx.db, older.id, [
      { id: 29_500_000, text: 'the gilded wherry rocked at the quay' },
    ]);
    // Newer chapters hold the words, and each pair of the longer phrase, but never all together.
    const texts = [
      'a gilded wherry',
      'the quay and a wherry gilded',
      'a gilded wherry and then the wherry rocked',
    ];
    await insertPublishedChapters(
      t.ctx.db,
      newer.id,
      Array.from({ length: 60 }, (_, i) => ({ id: 30_000_000 + i * 300, text: texts[i % 3]! })),
    );
    expect(await searchIds('"gilded wherry" quay')).toEqual([older.id]);
    expect(await searchIds('"gilded wherry rocked"')).toEqual([older.id]);
    expect(await searchIds('"gilded wherry"')).toEqual([newer.id, older.id]);
  });

  it('checks a phrase of four words or more for position after finding it by its triples', async () => {
    const [newer, older] = [await book('Lantern newer'), await book('Lantern older')];
    await insertPublishedChapters(t.ctx.db, older.id, [
      { id: 39_500_000, text: 'the copper lantern swung wildly in the gale' },
    ]);
    // Each newer chapter holds both triples of the four-word phrase, never the phrase itself.
    await insertPublishedChapters(
      t.ctx.db,
      newer.id,
      Array.from({ length: 60 }, (_, i) => ({
        id: 40_000_000 + i * 300,
        text: 'a copper lantern swung and then the lantern swung wildly',
      })),
    );
    expect(await searchIds('"copper lantern swung wildly"')).toEqual([older.id]);
    expect(await searchIds('"copper lantern swung"')).toEqual([newer.id, older.id]);
  });

  it('checks a phrase for position in the probes after the first', async () => {
    const [shore, decoy] = [await book('Shoreline'), await book('Decoy')];
    // Ten matches in the newest two buckets say the window needs a further probe of ~150
    // buckets; the chapters there hold both pairs of the phrase, never the phrase itself.
    await insertPublishedChapters(
      t.ctx.db,
      decoy.id,
      Array.from({ length: 30 }, (_, i) => ({
        id: 49_998_000 - i * 100,
        text: 'the ashen heron and the heron wept',
      })),
    );
    await insertPublishedChapters(
      t.ctx.db,
      shore.id,
      Array.from({ length: 10 }, (_, i) => ({ id: 50_000_000 + i * 50, text: 'ashen heron wept' })),
    );
    expect(await searchIds('"ashen heron wept"')).toEqual([shore.id]);
  });
});
