import { SEARCH_PAGE_SIZE } from '@inkwell/contract';
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
import { createChapter } from '../helpers/chapters.ts';
import { insertPublishedChapters } from '../helpers/rows.ts';
import { searchIds as searchAppIds } from '../helpers/search.ts';

// Quoted phrases are looked up by their word pairs (migration 0006, decision 0015) on both engines.
let t: TestApp;
let author: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  author = await signup(t.app);
});
afterAll(() => t.close());

const searchIds = (q: string, page = '') => searchAppIds(t, q, page);

/** A published book with one published chapter of the given text. */
async function bookWithText(title: string, text: string) {
  const book = await createBook(t.app, author, title, { published: true });
  const chapter = await createChapter(
    t.app,
    author,
    book.id,
    { content: `<p>${text}</p>` },
    { published: true },
  );
  return { book, chapter };
}

describe('phrase search', () => {
  it('finds a phrase in an old chapter however many newer chapters hold its words', async () => {
    const { book: old, chapter } = await bookWithText(
      'Old Tidings',
      'At dawn the kettle sang beside the tidewater gate.',
    );
    const newer = await createBook(t.app, author, 'Newer Tidings', { published: true });
    // More than a window of newer chapters hold every word of the phrase, in another order,
    // and the newest sits far above the old one (an earlier version searched phrases only in
    // the newest 20,000 chapters by id).
    await insertPublishedChapters(
      t.ctx.db,
      newer.id,
      Array.from({ length: CHAPTER_WINDOW + 20 }, () => ({
        text: 'tidewater kettle sang the gate',
      })),
    );
    await insertPublishedChapters(t.ctx.db, newer.id, [
      { id: chapter.id + 25_000, text: 'the gate sang kettle tidewater' },
    ]);
    expect(await searchIds('"kettle sang beside the tidewater"')).toEqual([old.id]);
    expect(await searchIds('"the tidewater gate"')).toEqual([old.id]);
    // Loose words, by contrast, are looked for in the newest window of matches only (0009).
    expect(await searchIds('tidewater kettle')).toEqual([newer.id]);
  });

  it('matches the words in order and side by side, whatever the case and punctuation', async () => {
    const { book } = await bookWithText(
      'Lantern Book',
      'She carried the Brass Lantern, glowing; past the mill it went dark.',
    );
    expect(await searchIds('"brass lantern glowing"')).toEqual([book.id]);
    expect(await searchIds('"BRASS LANTERN"')).toEqual([book.id]);
    expect(await searchIds('"lantern brass"')).toEqual([]);
    expect(await searchIds('"brass glowing"')).toEqual([]);
  });

  it('does not take two pairs of the phrase found apart for the phrase', async () => {
    // "copper whistle" and "whistle blew" are both in the text, "copper whistle blew" is not.
    const { book } = await bookWithText(
      'Whistle Book',
      'A copper whistle hung there. Far away the whistle blew twice.',
    );
    expect(await searchIds('"copper whistle"')).toEqual([book.id]);
    expect(await searchIds('"whistle blew"')).toEqual([book.id]);
    expect(await searchIds('"copper whistle blew"')).toEqual([]);
  });

  it('combines phrases and loose words, all required', async () => {
    const { book: both } = await bookWithText(
      'Marsh One',
      'The heron waited by the silver marsh until nightfall.',
    );
    const { book: phraseOnly } = await bookWithText('Marsh Two', 'Only the silver marsh remained.');
    expect((await searchIds('"silver marsh"')).sort()).toEqual([both.id, phraseOnly.id].sort());
    expect(await searchIds('heron "silver marsh"')).toEqual([both.id]);
    expect(await searchIds('"silver marsh" "until nightfall"')).toEqual([both.id]);
    expect(await searchIds('"silver marsh" "until dawn"')).toEqual([]);
  });

  it('follows edits, unpublishing and drafts', async () => {
    const { book, chapter } = await bookWithText('Edited Book', 'The amber clock ticked.');
    expect(await searchIds('"amber clock"')).toEqual([book.id]);
    const url = `/api/books/${book.id}/chapters/${chapter.id}`;
    await as(t.app, author).put(url, { content: '<p>The jade clock ticked.</p>' });
    expect(await searchIds('"amber clock"')).toEqual([]);
    expect(await searchIds('"jade clock"')).toEqual([book.id]);
    // Saving the same text again keeps it findable.
    await as(t.app, author).put(url, { content: '<p>The jade clock ticked.</p>' });
    expect(await searchIds('"jade clock"')).toEqual([book.id]);
    await as(t.app, author).put(url, { is_published: false });
    expect(await searchIds('"jade clock"')).toEqual([]);
    await as(t.app, author).put(url, { is_published: true });
    expect(await searchIds('"jade clock"')).toEqual([book.id]);

    const draftBook = await createBook(t.app, author, 'Draft Book');
    await createChapter(
      t.app,
      author,
      draftBook.id,
      { content: '<p>The onyx clock.</p>' },
      {
        published: true,
      },
    );
    const draftChapter = await createChapter(t.app, author, book.id, {
      content: '<p>The onyx clock.</p>',
    });
    expect(draftChapter.is_published).toBe(false);
    expect(await searchIds('"onyx clock"')).toEqual([]);
  });

  it('ranks a phrase in the book document above the phrase in chapter text', async () => {
    const { book: byText } = await bookWithText('Plain Cover', 'Beyond the cobalt harbour lights.');
    const byTitle = await createBook(t.app, author, 'The Cobalt Harbour', { published: true });
    expect(await searchIds('"cobalt harbour"')).toEqual([byTitle.id, byText.id]);
  });

  it.each([
    '"a AND b"',
    '"NEAR(x y)" "*"',
    '"" ""',
    '"title: marmalade"',
    '"e\u0301te\u0301 x"',
    '"\u{1E900}\u{1E901} word"',
    `"${'long '.repeat(98)}"`,
    `"${'y'.repeat(300)} z"`,
    '"one" "two" "three" "four" "five" "six" "seven" "eight" "nine" "ten"',
  ])('answers 200 for the phrase query %j', async (q) => {
    const res = await as(t.app).get(`/api/books/search?q=${encodeURIComponent(q)}`);
    expect(res.statusCode).toBe(200);
    expect(Array.isArray(res.json().books)).toBe(true);
  });
});

describe('the page of results', () => {
  it(`answers ${SEARCH_PAGE_SIZE} books unless asked for more, and pages by offset`, async () => {
    const writer = await signup(t.app);
    const books = [];
    for (let i = 0; i < SEARCH_PAGE_SIZE + 5; i++)
      books.push(await createBook(t.app, writer, `Periwinkle ${i}`, { published: true }));
    const newestFirst = books.map((b) => b.id as number).reverse();
    expect(await searchIds('periwinkle')).toEqual(newestFirst.slice(0, SEARCH_PAGE_SIZE));
    expect(await searchIds('periwinkle', '&limit=100')).toEqual(newestFirst);
    expect(await searchIds('periwinkle', `&offset=${SEARCH_PAGE_SIZE}`)).toEqual(
      newestFirst.slice(SEARCH_PAGE_SIZE),
    );
  });
});
