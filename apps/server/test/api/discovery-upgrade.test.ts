import { expect, it } from 'vitest';
import { as } from '../helpers/app.ts';
import { insertOldBook, insertOldUser, upgradedApp } from '../helpers/old-library.ts';

// A library made before issue 21 (migration 0015): its books get the defaults, and the numbers
// lists sort by are worked out from what is there.
let bookId: number;
const firstPublished = '2026-01-02T00:00:00.000Z';

const t = upgradedApp('0014_community', async (old, at) => {
  const users = [await insertOldUser(old, 'elder', at), await insertOldUser(old, 'fan', at)];
  bookId = await insertOldBook(old, users[0]!, 'Old Library', at);
  await old
    .insertInto('chapters')
    .values(
      [7, 5, 100].map((words, i) => ({
        book_id: bookId,
        title: `Chapter ${i + 1}`,
        content: '<p>x</p>',
        word_count: words,
        chapter_order: i + 1,
        is_published: i < 2 ? 1 : 0,
        first_published_at: i < 2 ? firstPublished : null,
        created_at: at,
        updated_at: at,
      })),
    )
    .execute();
  await old
    .insertInto('book_follows')
    .values({ user_id: users[1]!, book_id: bookId, created_at: at })
    .execute();
});

it('gives old books the defaults and counts their published words and followers', async () => {
  const book = (await as(t().app).get(`/api/books/${bookId}`)).json();
  expect(book).toMatchObject({
    tags: [],
    warnings: [],
    rating: 'general',
    status: 'ongoing',
    words: 12,
    followers: 1,
  });
  const row = await t()
    .ctx.db.selectFrom('books')
    .select(['follower_count', 'chapter_published_at'])
    .where('id', '=', bookId)
    .executeTakeFirstOrThrow();
  expect(row).toEqual({ follower_count: 1, chapter_published_at: firstPublished });
});
