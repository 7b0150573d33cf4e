import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { insertOldBook, insertOldUser, upgradedApp } from '../helpers/old-library.ts';
import { searchIds } from '../helpers/search.ts';

// A library made before chapter text was indexed after the write (migrations 0006 to 0009): its
// published chapters must still be found once the server has upgraded it.
let bookId: number;

const t = upgradedApp('0005_search_lookup', async (old, at) => {
  bookId = await insertOldBook(old, await insertOldUser(old, 'elder', at), 'Old Library', at);
  // As that version stored them: with their plain text beside the HTML, which its search
  // indexed (the column went in migration 0020, so the typed schema no longer names it).
  for (const [i, text] of ['the ancient lanternwick burned', 'a draft of thornquill'].entries())
    await sql`insert into chapters (book_id, title, content, content_text, word_count,
        chapter_order, is_published, created_at, updated_at)
      values (${bookId}, ${`Chapter ${i + 1}`}, ${`<p>${text}</p>`}, ${text}, 4, ${i + 1},
        ${i === 0 ? 1 : 0}, ${at}, ${at})`.execute(old);
});

it('finds the published chapters of a library made before the search queue, and no drafts', async () => {
  expect(await searchIds(t(), 'lanternwick')).toEqual([bookId]);
  expect(await searchIds(t(), '"ancient lanternwick"')).toEqual([bookId]);
  expect(await searchIds(t(), 'thornquill')).toEqual([]);
});
