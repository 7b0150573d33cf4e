import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeNotifications } from '../../src/modules/notifications/notifications.service.ts';
import type { DomainEvent } from '../../src/realtime/events.ts';
import { as, createTestApp, signup, type TestApp, type TestUser } from '../helpers/app.ts';
import { addChapter, createPublishedBook, follow, updateChapter } from '../helpers/live.ts';
import { userRow } from '../helpers/rows.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface Listed {
  notifications: Array<{
    id: number;
    type: string;
    message: string;
    is_read: boolean;
    chapter_id: number | null;
  }>;
  unread_count: number;
}
const inbox = async (user: TestUser, query = ''): Promise<Listed> => {
  const res = await as(t.app, user).get(`/api/my/notifications${query}`);
  expect(res.statusCode).toBe(200);
  return res.json();
};

/** An author with `chapters` published chapters, and a reader who followed them first. */
async function readerWithNews(chapters: number) {
  const [author, reader] = [await signup(t.app), await signup(t.app)];
  const book = await createPublishedBook(as(t.app, author), 'The Long Road');
  await follow(as(t.app, reader), author.id);
  const ids: number[] = [];
  for (let i = 1; i <= chapters; i++) {
    const chapter = await addChapter(as(t.app, author), book.id, `Part ${i}`);
    await updateChapter(as(t.app, author), book.id, chapter.id, { is_published: true });
    ids.push(chapter.id);
  }
  // Publishing answers once the inbox rows are written.
  return { author, reader, book, chapterIds: ids };
}

describe('GET /api/my/notifications', () => {
  it('answers 401 without a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/my/notifications' });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('unauthorized');
  });

  it('lists the reader’s notifications newest first, unread, with the full shape', async () => {
    const { author, reader, book, chapterIds } = await readerWithNews(3);
    const listed = await inbox(reader);
    expect(listed.unread_count).toBe(3);
    expect(listed.notifications.map((n) => n.chapter_id)).toEqual([...chapterIds].reverse());
    expect(listed.notifications[0]).toEqual({
      id: expect.any(Number),
      type: 'CHAPTER',
      message: `New chapter of "The Long Road" by ${author.username}: Part 3`,
      book_id: book.id,
      chapter_id: chapterIds[2],
      follower: null,
      comment_id: null,
      announcement_id: null,
      is_read: false,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    // The author heard of the follow.
    expect((await inbox(author)).notifications).toEqual([
      expect.objectContaining({
        type: 'FOLLOW',
        follower: reader.username,
        book_id: null,
        chapter_id: null,
        is_read: false,
      }),
    ]);
  });

  it('pages with limit and offset', async () => {
    const { reader, chapterIds } = await readerWithNews(5);
    const newestFirst = [...chapterIds].reverse();
    const first = await inbox(reader, '?limit=2');
    const second = await inbox(reader, '?limit=2&offset=2');
    const last = await inbox(reader, '?limit=2&offset=4');
    expect(
      [...first.notifications, ...second.notifications, ...last.notifications].map(
        (n) => n.chapter_id,
      ),
    ).toEqual(newestFirst);
    expect(last.notifications).toHaveLength(1);
    expect(first.unread_count).toBe(5);
  });

  it.each(['?limit=0', '?limit=101', '?offset=-1', '?limit=abc'])(
    'answers 400 for %s',
    async (query) => {
      const user = await signup(t.app);
      const res = await as(t.app, user).get(`/api/my/notifications${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation');
    },
  );

  it('shows a reader only their own notifications', async () => {
    await readerWithNews(1);
    const loner = await signup(t.app);
    expect(await inbox(loner)).toEqual({ notifications: [], unread_count: 0 });
  });
});

describe('POST /api/my/notifications/read', () => {
  it('answers 401 without a session', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/my/notifications/read' });
    expect(res.statusCode).toBe(401);
  });

  it('marks the given ids read and answers the new unread count', async () => {
    const { reader } = await readerWithNews(3);
    const [newest, middle] = (await inbox(reader)).notifications;
    const res = await as(t.app, reader).post('/api/my/notifications/read', {
      ids: [newest!.id, middle!.id],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      detail: 'Marked 2 notifications read',
      marked: 2,
      unread_count: 1,
    });
    const after = await inbox(reader);
    expect(after.notifications.map((n) => n.is_read)).toEqual([true, true, false]);
    expect(after.unread_count).toBe(1);
  });

  it.each([
    ['no body', undefined],
    ['an empty object', {}],
  ])('marks everything read when sent %s', async (_what, payload) => {
    const { reader } = await readerWithNews(2);
    const res = await as(t.app, reader).post('/api/my/notifications/read', payload);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ marked: 2, unread_count: 0 });
    expect((await inbox(reader)).notifications.every((n) => n.is_read)).toBe(true);
  });

  it('never marks another user’s notifications', async () => {
    const { reader } = await readerWithNews(1);
    const intruder = await signup(t.app);
    const [theirs] = (await inbox(reader)).notifications;
    const res = await as(t.app, intruder).post('/api/my/notifications/read', { ids: [theirs!.id] });
    expect(res.json()).toMatchObject({ marked: 0, unread_count: 0 });
    expect((await inbox(reader)).unread_count).toBe(1);
  });

  it.each([
    { ids: 'all' },
    { ids: [0] },
    { ids: [-3] },
    { ids: ['x'] },
    { ids: Array.from({ length: 501 }, (_, i) => i + 1) },
  ])('answers 400 for %j', async (payload) => {
    const user = await signup(t.app);
    const res = await as(t.app, user).post('/api/my/notifications/read', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation');
  });
});

describe('storing notifications', () => {
  it('keeps one row per reader and chapter even if a publication is announced twice', async () => {
    const { author, reader, book, chapterIds } = await readerWithNews(1);
    const event: DomainEvent = {
      type: 'chapter.published',
      authorId: author.id,
      authorUsername: author.username,
      bookId: book.id,
      bookTitle: 'The Long Road',
      chapterId: chapterIds[0]!,
      chapterTitle: 'Part 1',
    };
    expect(await storeNotifications(t.ctx, event)).toEqual({ recipients: [] });
    expect((await inbox(reader)).notifications).toHaveLength(1);
  });

  it('fans a chapter out to thousands of followers in one go', async () => {
    const author = await signup(t.app);
    const book = await createPublishedBook(as(t.app, author), 'Crowd Pleaser');
    const followers = 3_000;
    await addFollowers(author.id, followers);
    const chapter = await addChapter(as(t.app, author), book.id, 'For Everyone');
    await updateChapter(as(t.app, author), book.id, chapter.id, { is_published: true });
    const stored = await t.ctx.db
      .selectFrom('notifications')
      .select((eb) => [
        eb.fn.countAll<number>().as('rows'),
        eb.fn.count<number>('user_id').distinct().as('readers'),
      ])
      .where('chapter_id', '=', chapter.id)
      .executeTakeFirstOrThrow();
    expect({ rows: Number(stored.rows), readers: Number(stored.readers) }).toEqual({
      rows: followers,
      readers: followers,
    });
  });
});

/**
 * Followers written straight to the database: signing up thousands of users through argon2
 * would take minutes. Slices keep each statement under SQLite's parameter cap.
 */
async function addFollowers(authorId: number, count: number) {
  const now = new Date().toISOString();
  for (let start = 0; start < count; start += 500) {
    const users = await t.ctx.db
      .insertInto('users')
      .values(
        Array.from({ length: Math.min(500, count - start) }, (_, i) =>
          userRow(`crowd_${authorId}_${start + i}`, now),
        ),
      )
      .returning('id')
      .execute();
    await t.ctx.db
      .insertInto('follows')
      .values(users.map((u) => ({ follower_id: u.id, author_id: authorId, created_at: now })))
      .execute();
  }
}
