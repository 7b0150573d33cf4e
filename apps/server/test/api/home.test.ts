import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  createBook,
  createTestApp,
  signup,
  type TestApp,
  type TestUser,
} from '../helpers/app.ts';
import { daysAgo, insertChapter, insertRead } from '../helpers/rows.ts';

type Picks = {
  author_of_the_month: { id: number; username: string } | null;
  rising_author: { id: number; username: string } | null;
  featured_authors: Array<{ id: number; username: string }>;
};

const picks = async (t: TestApp): Promise<Picks> => {
  const res = await as(t.app).get('/api/home/authors');
  expect(res.statusCode).toBe(200);
  expect(res.body).not.toMatch(/password|argon|email/i);
  return res.json();
};

/** Follows through the API, then moves the follow back in time when `ageDays` is given. */
async function follow(t: TestApp, follower: TestUser, author: TestUser, ageDays?: number) {
  const res = await as(t.app, follower).post('/api/follows', { author_id: author.id });
  expect(res.statusCode).toBe(201);
  if (ageDays !== undefined) {
    await t.ctx.db
      .updateTable('follows')
      .set({ created_at: daysAgo(ageDays) })
      .where('follower_id', '=', follower.id)
      .where('author_id', '=', author.id)
      .execute();
  }
}

/** A published book with one published chapter, first published `ageDays` ago. */
async function publishedBook(t: TestApp, author: TestUser, title: string, ageDays = 0) {
  const book = await createBook(t.app, author, title, { published: true });
  await t.ctx.db
    .updateTable('books')
    .set({ published_at: daysAgo(ageDays) })
    .where('id', '=', book.id)
    .execute();
  const chapterId = await insertChapter(t.ctx.db, book.id, {
    title: `${title} 1`,
    order: 1,
    published: true,
  });
  return { bookId: book.id as number, chapterId };
}

async function read(
  t: TestApp,
  reader: TestUser,
  book: { bookId: number; chapterId: number },
  ageDays = 1,
) {
  await insertRead(t.ctx.db, {
    userId: reader.id,
    bookId: book.bookId,
    chapterId: book.chapterId,
    readAt: daysAgo(ageDays),
  });
}

const usernames = (list: Array<{ username: string }>) => list.map((a) => a.username);

describe('computed home picks', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers nulls and an empty list when there is no data', async () => {
    await signup(t.app);
    expect(await picks(t)).toEqual({
      author_of_the_month: null,
      rising_author: null,
      featured_authors: [],
    });
  });

  it('ranks new followers, new readers of debut authors and total followers', async () => {
    const readers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => signup(t.app, `home_reader_${i}`)),
    );
    const [r0, r1, r2, r3, r4, r5] = readers as [
      TestUser,
      TestUser,
      TestUser,
      TestUser,
      TestUser,
      TestUser,
    ];
    const veteran = await signup(t.app, 'veteran');
    const monthly = await signup(t.app, 'monthly');
    const steady = await signup(t.app, 'steady');
    const minor = [
      await signup(t.app, 'minor_a'),
      await signup(t.app, 'minor_b'),
      await signup(t.app, 'minor_c'),
      await signup(t.app, 'minor_d'),
    ];

    // veteran: the most followers overall, but none of them in the last 30 days.
    for (const r of [r0, r1, r2, r3, r4]) await follow(t, r, veteran, 60);
    // monthly: three new followers (and one old one) beat steady's two new ones.
    for (const r of [r0, r1, r2]) await follow(t, r, monthly);
    await follow(t, r3, monthly, 45);
    for (const r of [r0, r1]) await follow(t, r, steady, 3);
    for (const author of minor) await follow(t, r5, author, 100);

    // self_reader signs up first, so it wins any tie with rising_star. Counted right it has two
    // new readers: its own reading, a reader from 40 days ago and a repeat read do not count.
    const selfReader = await signup(t.app, 'self_reader');
    const mirror = await publishedBook(t, selfReader, 'Mirror', 20);
    const mirrorTwo = await insertChapter(t.ctx.db, mirror.bookId, {
      title: 'Mirror 2',
      order: 2,
      published: true,
    });
    await read(t, r3, mirror);
    await read(t, r3, { bookId: mirror.bookId, chapterId: mirrorTwo });
    await read(t, r4, mirror);
    await read(t, selfReader, mirror);
    await read(t, r5, mirror, 40);
    // rising_star: debut 10 days ago, three distinct new readers.
    const rising = await signup(t.app, 'rising_star');
    const debut = await publishedBook(t, rising, 'Debut', 10);
    for (const r of [r0, r1, r2]) await read(t, r, debut);
    // old_hand: four new readers, but the first book is 200 days old.
    const oldHand = await signup(t.app, 'old_hand');
    await publishedBook(t, oldHand, 'Backlist', 200);
    const fresh = await publishedBook(t, oldHand, 'Fresh', 2);
    for (const r of [r0, r1, r2, r3]) await read(t, r, fresh);
    // drafter: a recent debut, and six readers of another book that is no longer published.
    const drafter = await signup(t.app, 'drafter');
    await publishedBook(t, drafter, 'Shown', 5);
    const hidden = await publishedBook(t, drafter, 'Hidden', 1);
    for (const r of readers) await read(t, r, hidden);
    await as(t.app, drafter).put(`/api/books/${hidden.bookId}`, {
      title: 'Hidden',
      is_published: false,
    });

    const answer = await picks(t);
    expect(answer.author_of_the_month?.username).toBe('monthly');
    expect(answer.rising_author?.username).toBe('rising_star');
    expect(usernames(answer.featured_authors)).toEqual([
      'veteran',
      'monthly',
      'steady',
      'minor_a',
      'minor_b',
      'minor_c',
    ]);
    expect(answer.author_of_the_month).toEqual(
      (await as(t.app).get(`/api/authors/${monthly.id}`)).json(),
    );
  });
});

describe('pinned home picks', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      HOME_AUTHOR_OF_THE_MONTH: 'Pinned_Star',
      HOME_RISING_AUTHOR: 'ghost_writer',
      HOME_FEATURED_AUTHORS: 'feat_two, no_such_user ,FEAT_ONE',
    });
  });
  afterAll(() => t.close());

  it('uses the pinned usernames that exist, in order, and computes the ones that do not', async () => {
    const star = await signup(t.app, 'pinned_star');
    const one = await signup(t.app, 'feat_one');
    const two = await signup(t.app, 'feat_two');
    const popular = await signup(t.app, 'popular');
    const reader = await signup(t.app);
    await follow(t, reader, popular);
    const newcomer = await signup(t.app, 'newcomer');
    await read(t, reader, await publishedBook(t, newcomer, 'First Steps', 3));

    const answer = await picks(t);
    expect(answer.author_of_the_month).toMatchObject({ id: star.id, username: 'pinned_star' });
    expect(answer.rising_author).toMatchObject({ username: 'newcomer' });
    expect(answer.featured_authors.map((a) => a.id)).toEqual([two.id, one.id]);
  });
});

describe('pins that name nobody', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      HOME_AUTHOR_OF_THE_MONTH: 'ghost_one',
      HOME_FEATURED_AUTHORS: 'ghost_two,ghost_three',
      // Picks move with follows, which empty no cache (a kept answer lasts up to
      // READ_CACHE_MAX_AGE_SECONDS); this test is about how they are computed.
      READ_CACHE: 'off',
    });
  });
  afterAll(() => t.close());

  it('fall back to the computed picks', async () => {
    const author = await signup(t.app, 'real_author');
    const reader = await signup(t.app);
    expect(await picks(t)).toEqual({
      author_of_the_month: null,
      rising_author: null,
      featured_authors: [],
    });
    await follow(t, reader, author);
    const answer = await picks(t);
    expect(answer.author_of_the_month?.username).toBe('real_author');
    expect(usernames(answer.featured_authors)).toEqual(['real_author']);
  });
});
