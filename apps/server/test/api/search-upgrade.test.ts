import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { insertOldBook, insertOldUser, oldLibrary } from '../helpers/old-library.ts';
import { searchIds } from '../helpers/search.ts';

// A library made before chapter text was indexed after the write (migrations 0006 to 0009): its
// published chapters must still be found once the server has upgraded it.
let database: TestDatabase;
let t: TestApp;
let bookId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  const old = await oldLibrary(database, '0005_search_lookup');
  const at = new Date().toISOString();
  bookId = await insertOldBook(old, await insertOldUser(old, 'elder', at), 'Old Library', at);
  await old
    .insertInto('chapters')
    .values(
      ['the ancient lanternwick burned', 'a draft of thornquill'].map((text, i) => ({
        book_id: bookId,
        title: `Chapter ${i + 1}`,
        content: `<p>${text}</p>`,
        content_text: text,
        word_count: 4,
        chapter_order: i + 1,
        is_published: i === 0 ? 1 : 0,
        created_at: at,
        updated_at: at,
      })),
    )
    .execute();
  await old.destroy();
  t = await createTestApp({}, { database });
});
afterAll(async () => {
  await t.close();
  await database.drop();
});

it('finds the published chapters of a library made before the search queue, and no drafts', async () => {
  expect(await searchIds(t, 'lanternwick')).toEqual([bookId]);
  expect(await searchIds(t, '"ancient lanternwick"')).toEqual([bookId]);
  expect(await searchIds(t, 'thornquill')).toEqual([]);
});
