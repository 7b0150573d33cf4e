import crypto from 'node:crypto';
import { STATS_FOLLOWER_DAYS, STATS_PRIVACY_FLOOR } from '@inkwell/contract/constants';
import type { BookStats } from '@inkwell/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../src/db/kysely.ts';
import { nowIso } from '../../src/lib/convert.ts';
import { writeViews } from '../../src/modules/stats/stats.service.ts';
import {
  as,
  createBook,
  createTestApp,
  signup,
  type TestApp,
  type TestUser,
} from '../helpers/app.ts';
import { daysAgo, insertRead, userRow } from '../helpers/rows.ts';

/** Issue 20, "Who keeps reading": GET /api/my/books/{id}/stats and the visitors' view beacon. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ VIEW_FLUSH_INTERVAL_MS: '3600000' });
});
afterAll(() => t.close());

let names = 0;
const stats = (who: TestUser | null, bookId: number, query = '') =>
  as(t.app, who).get(`/api/my/books/${bookId}/stats${query}`);
const okStats = async (who: TestUser, bookId: number, query = ''): Promise<BookStats> => {
  const res = await stats(who, bookId, query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const view = (chapterId: number, session: string, who: TestUser | null = null) =>
  as(t.app, who).post(`/api/chapters/${chapterId}/view`, { session });

/** A chapter of `paragraphs` paragraphs, written straight to the database. */
async function insertChapter(
  db: DbHandle,
  bookId: number,
  fields: { order: number; published: boolean; paragraphs?: number },
): Promise<number> {
  const at = nowIso();
  const text = Array.from({ length: fields.paragraphs ?? 1 }, (_, i) => `Paragraph ${i + 1}.`);
  const { id } = await db
    .insertInto('chapters')
    .values({
      book_id: bookId,
      title: `Chapter ${fields.order}`,
      content: text.map((p) => `<p>${p}</p>`).join(''),
      word_count: text.length * 2,
      chapter_order: fields.order,
      is_published: fields.published ? 1 : 0,
      first_published_at: fields.published ? at : null,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

async function insertUsers(db: DbHandle, count: number): Promise<number[]> {
  const rows = await db
    .insertInto('users')
    .values(Array.from({ length: count }, () => userRow(`stats_reader_${process.pid}_${++names}`)))
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

async function publishedBook(author: TestUser) {
  return createBook(t.app, author, `Stats book ${++names}`, { published: true });
}

describe('who may ask', () => {
  it('answers 401 without a session and 404 to anyone but the author, draft or published', async () => {
    const author = await signup(t.app);
    const other = await signup(t.app);
    const published = await publishedBook(author);
    const draft = await createBook(t.app, author, `Stats draft ${++names}`);

    const anonymous = await stats(null, published.id);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('unauthorized');
    for (const id of [published.id, draft.id, 999_999]) {
      const res = await stats(other, id);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Book not found', code: 'not_found' });
    }
    expect((await stats(author, draft.id)).statusCode).toBe(200);
    expect((await stats(author, published.id)).statusCode).toBe(200);
  });

  it('answers 404 for ?chapter= of a draft, of another book or of nothing, 400 for a bad id', async () => {
    const author = await signup(t.app);
    const book = await publishedBook(author);
    const otherBook = await publishedBook(author);
    const draftChapter = await insertChapter(t.ctx.db, book.id, { order: 1, published: false });
    const elsewhere = await insertChapter(t.ctx.db, otherBook.id, { order: 1, published: true });
    for (const id of [draftChapter, elsewhere, 999_999]) {
      const res = await stats(author, book.id, `?chapter=${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Chapter not found', code: 'not_found' });
    }
    const bad = await stats(author, book.id, '?chapter=abc');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('validation');
  });

  it('answers an empty book with no figures and a full followers series', async () => {
    const author = await signup(t.app);
    const book = await publishedBook(author);
    const answer = await okStats(author, book.id);
    expect(answer.chapters).toEqual([]);
    expect(answer.retention).toEqual([]);
    expect(answer.paragraph_dropoff).toBeNull();
    expect(answer.followers.now).toBe(0);
    expect(answer.followers.daily).toHaveLength(STATS_FOLLOWER_DAYS);
    expect(answer.followers.daily.at(-1)).toEqual({
      date: new Date().toISOString().slice(0, 10),
      count: 0,
    });
    expect(answer.followers.daily.every((day) => day.count === 0)).toBe(true);
  });
});

describe('the privacy floor', () => {
  it(`shows no figure of a chapter fewer than ${STATS_PRIVACY_FLOOR} readers reached`, async () => {
    const author = await signup(t.app);
    const book = await publishedBook(author);
    const db = t.ctx.db;
    const one = await insertChapter(db, book.id, { order: 1, published: true, paragraphs: 3 });
    const two = await insertChapter(db, book.id, { order: 2, published: true });
    const readers = await insertUsers(db, STATS_PRIVACY_FLOOR);
    // Everyone read chapter 1; one fewer than the floor went on to chapter 2.
    for (const [i, user] of readers.entries()) {
      await insertRead(db, { userId: user, bookId: book.id, chapterId: one });
      await db
        .insertInto('chapter_likes')
        .values({ user_id: user, chapter_id: i === 0 ? two : one, created_at: nowIso() })
        .execute();
      if (i > 0)
        await db
          .insertInto('reading_positions')
          .values({
            user_id: user,
            book_id: book.id,
            chapter_id: two,
            paragraph: 0,
            char_offset: 0,
            updated_at: nowIso(),
          })
          .execute();
    }
    const answer = await okStats(author, book.id, `?chapter=${two}`);
    expect(answer.chapters).toEqual([
      {
        chapter_id: one,
        order: 1,
        title: 'Chapter 1',
        readers: STATS_PRIVACY_FLOOR,
        likes: STATS_PRIVACY_FLOOR - 1,
        comments: 0,
      },
      { chapter_id: two, order: 2, title: 'Chapter 2', readers: null, likes: null, comments: null },
    ]);
    expect(answer.retention).toEqual([
      { chapter_id: one, order: 1, share: 1 },
      { chapter_id: two, order: 2, share: null },
    ]);
    expect(answer.paragraph_dropoff).toEqual({
      chapter_id: two,
      paragraphs: [{ paragraph: 0, readers: null }],
    });

    // One more reader's progress in chapter 2 lifts its figures over the floor.
    const [late] = await insertUsers(db, 1);
    await db
      .insertInto('reading_positions')
      .values({
        user_id: late!,
        book_id: book.id,
        chapter_id: two,
        paragraph: 0,
        char_offset: 0,
        updated_at: nowIso(),
      })
      .execute();
    const after = await okStats(author, book.id, `?chapter=${two}`);
    expect(after.chapters[1]).toMatchObject({ readers: STATS_PRIVACY_FLOOR, likes: 1 });
    expect(after.retention[1]!.share).toBe(
      Math.round((STATS_PRIVACY_FLOOR / (STATS_PRIVACY_FLOOR + 1)) * 10_000) / 10_000,
    );
    expect(after.paragraph_dropoff!.paragraphs).toEqual([
      { paragraph: 0, readers: STATS_PRIVACY_FLOOR },
    ]);
    // Nothing in the answer names a reader.
    const text = JSON.stringify(after);
    for (const key of ['user_id', 'username', 'session']) expect(text).not.toContain(key);
  });
});

describe('the privacy floor against made-up sessions', () => {
  it('keeps a chapter that too few signed-in readers reached hidden, however many beacons come', async () => {
    const author = await signup(t.app);
    const book = await publishedBook(author);
    const db = t.ctx.db;
    const one = await insertChapter(db, book.id, { order: 1, published: true });
    const two = await insertChapter(db, book.id, { order: 2, published: true });
    const readers = await insertUsers(db, STATS_PRIVACY_FLOOR + 2);
    // Every reader read chapter 1; two of them went on to chapter 2 and liked it.
    for (const [i, user] of readers.entries()) {
      const chapters = i < 2 ? [one, two] : [one];
      for (const chapter of chapters)
        await insertRead(db, { userId: user, bookId: book.id, chapterId: chapter });
      if (i < 2)
        await db
          .insertInto('chapter_likes')
          .values({ user_id: user, chapter_id: two, created_at: nowIso() })
          .execute();
    }
    expect((await okStats(author, book.id)).chapters[1]).toMatchObject({
      readers: null,
      likes: null,
    });
    // The author pads chapter 2 with beacons of sessions they made up: 2 + 5 would pass a floor
    // on the sum, and 7 - 5 would tell them the two.
    for (let i = 0; i < STATS_PRIVACY_FLOOR; i++) await view(two, `made-up-${names}-${i}-session`);
    await t.ctx.views.flush();
    const padded = await okStats(author, book.id);
    expect(padded.chapters.map((c) => [c.readers, c.likes])).toEqual([
      [STATS_PRIVACY_FLOOR + 2 + STATS_PRIVACY_FLOOR, 0],
      [null, null],
    ]);
    expect(padded.retention.map((r) => r.share)).toEqual([1, null]);
  });
});

describe('comments counted', () => {
  it('counts comments as the reader does: no reply in a thread hidden by a block', async () => {
    const author = await signup(t.app);
    const book = await publishedBook(author);
    const db = t.ctx.db;
    const one = await insertChapter(db, book.id, { order: 1, published: true });
    const readers = await insertUsers(db, STATS_PRIVACY_FLOOR);
    for (const user of readers)
      await insertRead(db, { userId: user, bookId: book.id, chapterId: one });
    const [blocked, replier] = readers as [number, number];
    const comment = (user: number, parent: number | null, deleted: 0 | 1 = 0) =>
      db
        .insertInto('comments')
        .values({
          chapter_id: one,
          book_id: book.id,
          user_id: user,
          parent_id: parent,
          paragraph: null,
          body: deleted ? '' : 'A comment',
          deleted,
          created_at: nowIso(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    // The author blocked the writer of a thread: the thread, its reply included, is hidden.
    const hidden = await comment(blocked, null);
    await comment(replier, hidden.id);
    await db
      .insertInto('user_blocks')
      .values({ blocker_id: author.id, blocked_id: blocked, created_at: nowIso() })
      .execute();
    // Shown: a thread, its reply; not shown: a deleted one.
    const shown = await comment(replier, null);
    await comment(readers[2]!, shown.id);
    await comment(readers[3]!, null, 1);
    const answer = await okStats(author, book.id);
    expect(answer.chapters[0]).toMatchObject({ readers: STATS_PRIVACY_FLOOR, comments: 2 });
    // The reader's own count says the same.
    const counts = await as(t.app, null).get(`/api/chapters/${one}/comment-counts`);
    expect(counts.statusCode, counts.body).toBe(200);
    expect(counts.json().total).toBe(2);
  });
});

describe('followers over time', () => {
  it('counts follows and unfollows, whatever removes the follow, day by day', async () => {
    const author = await signup(t.app);
    const book = await publishedBook(author);
    const [ann, bob, cid] = [await signup(t.app), await signup(t.app), await signup(t.app)];
    for (const reader of [ann, bob, cid])
      expect((await as(t.app, reader).post(`/api/books/${book.id}/follow`)).statusCode).toBe(200);
    // A repeated follow is one follow.
    await as(t.app, ann).post(`/api/books/${book.id}/follow`);
    expect((await okStats(author, book.id)).followers.daily.at(-1)!.count).toBe(3);

    await as(t.app, ann).delete(`/api/books/${book.id}/follow`);
    await as(t.app, ann).delete(`/api/books/${book.id}/follow`);
    // A block removes the blocked reader's follows of the author's books.
    const blocked = await as(t.app, author).post('/api/my/blocks', { username: bob.username });
    expect(blocked.statusCode).toBe(200);
    const answer = await okStats(author, book.id);
    expect(answer.followers.now).toBe(1);
    expect(answer.followers.daily.at(-1)!.count).toBe(1);
  });

  it('places follows on the day they were made, and deleting a followed book still works', async () => {
    const author = await signup(t.app);
    const book = await publishedBook(author);
    const users = await insertUsers(t.ctx.db, 3);
    const ages = [10, 10, 3];
    for (const [i, user] of users.entries())
      await t.ctx.db
        .insertInto('book_follows')
        .values({ user_id: user, book_id: book.id, created_at: daysAgo(ages[i]!) })
        .execute();
    const { daily } = (await okStats(author, book.id)).followers;
    const last = daily.length - 1;
    expect(daily[last - 11]!.count).toBe(0);
    expect(daily[last - 10]!.count).toBe(2);
    expect(daily[last - 4]!.count).toBe(2);
    expect(daily[last - 3]!.count).toBe(3);
    expect(daily[last]!.count).toBe(3);

    const gone = await as(t.app, author).delete(`/api/books/${book.id}`);
    expect(gone.statusCode).toBeLessThan(300);
    const left = await t.ctx.db
      .selectFrom('book_follow_changes')
      .select('id')
      .where('book_id', '=', book.id)
      .execute();
    expect(left).toEqual([]);
  });
});

describe('view counting', () => {
  it('counts a visitor session once per chapter, after a flush, and only for public chapters', async () => {
    const author = await signup(t.app);
    const reader = await signup(t.app);
    const book = await publishedBook(author);
    const one = await insertChapter(t.ctx.db, book.id, { order: 1, published: true });
    const two = await insertChapter(t.ctx.db, book.id, { order: 2, published: true });
    const draft = await insertChapter(t.ctx.db, book.id, { order: 3, published: false });
    const sessions = Array.from({ length: 6 }, (_, i) => `session-${names}-${i}-abcdef`);
    for (const session of sessions) {
      const res = await view(one, session);
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({ detail: 'Counted' });
      await view(one, session);
      await view(draft, session);
    }
    await view(two, sessions[0]!);
    // A signed-in reader counts through history and progress, never through the beacon.
    await view(two, 'signed-in-session', reader);

    // Counted in memory until the batch is written.
    expect((await okStats(author, book.id)).chapters[0]!.readers).toBeNull();
    await t.ctx.views.flush();
    const answer = await okStats(author, book.id);
    expect(answer.chapters.map((c) => c.readers)).toEqual([6, null]);
    const kept = await t.ctx.db
      .selectFrom('chapter_views')
      .select('chapter_id')
      .where('chapter_id', 'in', [one, two, draft])
      .execute();
    expect(kept).toHaveLength(7);

    // Views sent again after the flush are kept once (the table's key).
    for (const session of sessions) await view(two, session);
    await t.ctx.views.flush();
    expect((await okStats(author, book.id)).chapters.map((c) => c.readers)).toEqual([6, 6]);
  });

  it('refuses a malformed session id with 400 and an unknown id with no error', async () => {
    const author = await signup(t.app);
    const book = await publishedBook(author);
    const one = await insertChapter(t.ctx.db, book.id, { order: 1, published: true });
    for (const session of ['short', 'x'.repeat(65), 'has spaces in it', '<script>alert(1)']) {
      const res = await view(one, session);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation');
    }
    expect((await view(999_999, 'a-valid-session-id')).statusCode).toBe(202);
    // The batch drops the view of a chapter that does not exist, and keeps the rest.
    await view(one, 'kept-with-the-unknown-one');
    await t.ctx.views.flush();
    const kept = await t.ctx.db
      .selectFrom('chapter_views')
      .select('chapter_id')
      .where('session', 'in', ['a-valid-session-id', 'kept-with-the-unknown-one'])
      .execute();
    expect(kept).toEqual([{ chapter_id: one }]);
  });

  it('drops the view of a published chapter in a draft book', async () => {
    const author = await signup(t.app);
    const draftBook = await createBook(t.app, author, `Stats draft book ${++names}`);
    const chapter = await insertChapter(t.ctx.db, draftBook.id, { order: 1, published: true });
    expect((await view(chapter, `draft-book-${names}-session`)).statusCode).toBe(202);
    await t.ctx.views.flush();
    const kept = await t.ctx.db
      .selectFrom('chapter_views')
      .select('session')
      .where('chapter_id', '=', chapter)
      .execute();
    expect(kept).toEqual([]);
  });

  it('writes a batch of more chapters than a query takes parameters', async () => {
    const author = await signup(t.app);
    const book = await publishedBook(author);
    const one = await insertChapter(t.ctx.db, book.id, { order: 1, published: true });
    // Beyond SQLite's 32,766 parameters and PostgreSQL's 65,535: ids of chapters that do not
    // exist (a flood of beacons), and one that does.
    const batch = Array.from({ length: 70_000 }, (_, i) => ({
      chapter_id: 10_000_000 + i,
      session: 'flooded-session-id',
    }));
    batch.push({ chapter_id: one, session: 'flooded-session-id' });
    await writeViews(t.ctx.db, batch);
    const kept = await t.ctx.db
      .selectFrom('chapter_views')
      .select('chapter_id')
      .where('session', '=', 'flooded-session-id')
      .execute();
    expect(kept).toEqual([{ chapter_id: one }]);
  });

  it('writes what is counted when the process closes, and two processes add up', async () => {
    const author = await signup(t.app);
    const book = await publishedBook(author);
    const one = await insertChapter(t.ctx.db, book.id, { order: 1, published: true });
    const second = await createTestApp(
      { VIEW_FLUSH_INTERVAL_MS: '3600000' },
      { database: t.database },
    );
    const post = (app: TestApp, session: string) =>
      app.app.inject({ method: 'POST', url: `/api/chapters/${one}/view`, payload: { session } });
    for (let i = 0; i < 4; i++) await post(t, `first-process-${i}`);
    for (let i = 0; i < 4; i++) await post(second, `second-process-${i}`);
    // One session seen by both processes is one reader.
    await post(t, 'seen-by-both-processes');
    await post(second, 'seen-by-both-processes');
    expect(second.ctx.views.waiting).toBe(5);
    await second.close();
    await t.ctx.views.flush();
    expect((await okStats(author, book.id)).chapters[0]!.readers).toBe(9);
  });

  it('answers 429 past RATE_LIMIT_VIEWS (600 a minute) from one address, not from the next', async () => {
    expect(t.config.RATE_LIMIT_VIEWS).toEqual({ max: 600, windowMs: 60_000 });
    const author = await signup(t.app);
    const book = await publishedBook(author);
    const one = await insertChapter(t.ctx.db, book.id, { order: 1, published: true });
    let sent = 0;
    const from = (remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/chapters/${one}/view`,
        remoteAddress,
        payload: { session: `rate-limited-${++sent}` },
      });
    const started = Date.now();
    for (let i = 0; i < 600; i++) expect((await from('198.51.100.7')).statusCode).toBe(202);
    // The bucket refills 10 a second: the next refusal comes within what refilled meanwhile.
    const refill = Math.ceil(((Date.now() - started) / 1000) * 10) + 1;
    let refused;
    for (let i = 0; i <= refill && !refused; i++) {
      const res = await from('198.51.100.7');
      if (res.statusCode !== 202) refused = res;
    }
    expect(refused?.statusCode).toBe(429);
    expect(refused?.json()).toMatchObject({ code: 'rate_limited' });
    expect(refused?.json().detail).toMatch(/^Too many chapter views from your address\. /);
    expect((await from('198.51.100.8')).statusCode).toBe(202);
  });
});

/*
 * Generated history: many readers' history, progress, likes, comments, follows and views,
 * from a seeded generator, so the answer is the same on every run and on both engines. The
 * test computes the rules plainly from what it wrote and compares.
 */
describe('stats against generated history', () => {
  function random(seed: number) {
    let state = seed;
    return () => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state / 2_147_483_648;
    };
  }

  it('answers exactly the plain computation of the rules', async () => {
    const rand = random(20);
    const pick = (n: number) => Math.floor(rand() * n);
    const db = t.ctx.db;
    const author = await signup(t.app);
    const book = await publishedBook(author);
    const shape = [
      { published: true, paragraphs: 6 },
      { published: true, paragraphs: 4 },
      { published: false, paragraphs: 2 },
      { published: true, paragraphs: 8 },
      { published: true, paragraphs: 3 },
      { published: true, paragraphs: 5 },
    ];
    const chapters: { id: number; order: number; published: boolean; paragraphs: number }[] = [];
    for (const [i, fields] of shape.entries()) {
      const order = i + 1;
      chapters.push({
        id: await insertChapter(db, book.id, { order, ...fields }),
        order,
        ...fields,
      });
    }
    const users = await insertUsers(db, 120);
    const reach = new Map<string, number>();
    const reached = (reader: string, order: number) =>
      reach.set(reader, Math.max(reach.get(reader) ?? 0, order));
    const likes = new Map<number, number>();
    const comments = new Map<number, number>();
    const stops = new Map<number, number[]>();
    const followsAt: { days: number; gone: boolean }[] = [];

    // The author's own reading never counts.
    await db
      .insertInto('reading_positions')
      .values({
        user_id: author.id,
        book_id: book.id,
        chapter_id: chapters[5]!.id,
        paragraph: 1,
        char_offset: 0,
        updated_at: nowIso(),
      })
      .execute();

    for (const user of users) {
      // Readers drop off: each reads a prefix of the book, skipping a chapter now and then.
      const depth = 1 + pick(shape.length);
      const history = chapters.slice(0, depth).filter(() => rand() < 0.8);
      for (const chapter of history) {
        await insertRead(db, { userId: user, bookId: book.id, chapterId: chapter.id });
        if (chapter.published) reached(`u${user}`, chapter.order);
      }
      if (rand() < 0.7) {
        const chapter = chapters[pick(depth)]!;
        // Some positions lie past the chapter's end (the text was shortened since).
        // Many stop at the first paragraph.
        const paragraph = rand() < 0.4 ? 0 : pick(chapter.paragraphs + 2);
        await db
          .insertInto('reading_positions')
          .values({
            user_id: user,
            book_id: book.id,
            chapter_id: chapter.id,
            paragraph,
            char_offset: 0,
            updated_at: nowIso(),
          })
          .execute();
        if (chapter.published) {
          reached(`u${user}`, chapter.order);
          const counts = stops.get(chapter.id) ?? new Array<number>(chapter.paragraphs).fill(0);
          counts[Math.min(paragraph, chapter.paragraphs - 1)]! += 1;
          stops.set(chapter.id, counts);
        }
      }
      for (const chapter of chapters.slice(0, depth)) {
        if (rand() < 0.3) {
          await db
            .insertInto('chapter_likes')
            .values({ user_id: user, chapter_id: chapter.id, created_at: nowIso() })
            .execute();
          likes.set(chapter.id, (likes.get(chapter.id) ?? 0) + 1);
        }
        if (rand() < 0.15) {
          const deleted = rand() < 0.2 ? 1 : 0;
          await db
            .insertInto('comments')
            .values({
              chapter_id: chapter.id,
              book_id: book.id,
              user_id: user,
              parent_id: null,
              paragraph: null,
              body: deleted ? '' : 'A comment',
              deleted,
              created_at: nowIso(),
            })
            .execute();
          if (!deleted) comments.set(chapter.id, (comments.get(chapter.id) ?? 0) + 1);
        }
      }
      if (rand() < 0.4) {
        const days = pick(120);
        await db
          .insertInto('book_follows')
          .values({ user_id: user, book_id: book.id, created_at: daysAgo(days) })
          .execute();
        const gone = rand() < 0.25;
        if (gone)
          await db
            .deleteFrom('book_follows')
            .where('user_id', '=', user)
            .where('book_id', '=', book.id)
            .execute();
        followsAt.push({ days, gone });
      }
    }
    // A last chapter that only a few signed-in readers reached: under the floor.
    const last = { order: shape.length + 1, published: true, paragraphs: 2 };
    chapters.push({ id: await insertChapter(db, book.id, last), ...last });
    for (const user of users.slice(0, STATS_PRIVACY_FLOOR - 2)) {
      await db
        .insertInto('read_history')
        .values({
          user_id: user,
          book_id: book.id,
          chapter_id: chapters.at(-1)!.id,
          read_at: nowIso(),
        })
        .execute();
      reached(`u${user}`, last.order);
    }
    // Visitors: sessions reading a prefix of the first chapters, through the beacon.
    for (let s = 0; s < 40; s++) {
      const session = `generated-${names}-${s}-session`;
      const depth = 1 + pick(shape.length);
      for (const chapter of chapters.slice(0, depth)) {
        if (rand() < 0.9) {
          await view(chapter.id, session);
          if (chapter.published) reached(`s${s}`, chapter.order);
        }
      }
    }
    await t.ctx.views.flush();

    // The rules, written plainly.
    const floor = (figure: number, readers: number) =>
      readers >= STATS_PRIVACY_FLOOR ? figure : null;
    const published = chapters.filter((c) => c.published);
    // Signed-in readers (u) are none or at the floor on their own; sessions (s) add to the sum.
    const readersAt = (order: number) => {
      const count = (kind: string) =>
        [...reach.entries()].filter(([key, r]) => key.startsWith(kind) && r >= order).length;
      return { signedIn: count('u'), sessions: count('s') };
    };
    const enough = ({ signedIn, sessions }: { signedIn: number; sessions: number }) =>
      signedIn + sessions >= STATS_PRIVACY_FLOOR &&
      (signedIn === 0 || signedIn >= STATS_PRIVACY_FLOOR);
    const sum = (r: { signedIn: number; sessions: number }) => r.signedIn + r.sessions;
    const first = readersAt(published[0]!.order);
    const day = (daysBack: number) =>
      new Date(Date.now() - daysBack * 86_400_000).toISOString().slice(0, 10);
    const expected: BookStats = {
      book_id: book.id,
      followers: {
        now: followsAt.filter((f) => !f.gone).length,
        daily: Array.from({ length: STATS_FOLLOWER_DAYS }, (_, i) => {
          const back = STATS_FOLLOWER_DAYS - 1 - i;
          // Follows made that day or before; unfollows all happened today.
          const made = followsAt.filter((f) => f.days >= back).length;
          const gone = back === 0 ? followsAt.filter((f) => f.gone).length : 0;
          return { date: day(back), count: made - gone };
        }),
      },
      chapters: published.map((c) => {
        const readers = readersAt(c.order);
        const shown = (figure: number) => (enough(readers) ? figure : null);
        return {
          chapter_id: c.id,
          order: c.order,
          title: `Chapter ${c.order}`,
          readers: shown(sum(readers)),
          likes: shown(likes.get(c.id) ?? 0),
          comments: shown(comments.get(c.id) ?? 0),
        };
      }),
      retention: published.map((c) => {
        const readers = readersAt(c.order);
        return {
          chapter_id: c.id,
          order: c.order,
          share:
            enough(readers) && enough(first)
              ? Math.round((sum(readers) / sum(first)) * 10_000) / 10_000
              : null,
        };
      }),
      paragraph_dropoff: {
        chapter_id: chapters[0]!.id,
        paragraphs: (stops.get(chapters[0]!.id) ?? []).map((readers, paragraph) => ({
          paragraph,
          readers: floor(readers, readers),
        })),
      },
    };

    const answer = await okStats(author, book.id, `?chapter=${chapters[0]!.id}`);
    expect(answer).toEqual(expected);
    // The data is rich enough to test something: figures above and below the floor.
    expect(answer.chapters.some((c) => c.readers === null)).toBe(true);
    expect(answer.chapters.filter((c) => c.readers !== null).length).toBeGreaterThan(2);
    expect(answer.paragraph_dropoff!.paragraphs.some((p) => p.readers === null)).toBe(true);
    expect(answer.paragraph_dropoff!.paragraphs.some((p) => p.readers !== null)).toBe(true);
    expect(answer.followers.daily.some((d) => d.count > 0)).toBe(true);

    // The same generated history answers the same figures on SQLite and PostgreSQL: ids and
    // dates aside, the answer's digest is one constant for both engines.
    const figures = {
      followers: answer.followers.daily.map((d) => d.count),
      chapters: answer.chapters.map(({ order, readers, likes, comments }) => [
        order,
        readers,
        likes,
        comments,
      ]),
      retention: answer.retention.map((r) => r.share),
      dropoff: answer.paragraph_dropoff!.paragraphs.map((p) => p.readers),
    };
    expect(crypto.hash('sha256', JSON.stringify(figures)).slice(0, 16)).toBe(GENERATED_DIGEST);
  });
});

/** The digest of the generated history's figures; both engines must answer it. */
const GENERATED_DIGEST = '89800183737f7dda';
