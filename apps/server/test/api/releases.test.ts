import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ANNOUNCEMENT_TITLE_MAX_LENGTH,
  SCHEDULE_NOTE_MAX_LENGTH,
  type Notification,
} from '@inkwell/contract';
import {
  as,
  createBook,
  createTestApp,
  signup,
  type TestApp,
  type TestUser,
} from '../helpers/app.ts';
import { createChapter } from '../helpers/chapters.ts';
import { closeAllSockets, connect, listen } from '../helpers/ws.ts';
import { releaseScheduledChapter } from '../../src/modules/chapters/chapters.service.ts';
import { releaseDueChapters } from '../../src/modules/releases/releases.service.ts';

/**
 * Issue 20: scheduled releases, author's notes and announcements. Runs on SQLite and PostgreSQL
 * (the sqlite and postgres projects). The app runs its release job as deployed (once a second);
 * tests that must not wait call the release with a later "now" instead, on chapters scheduled
 * far enough ahead that the job leaves them alone.
 */
let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await listen(t.app);
});
afterEach(() => closeAllSockets());
afterAll(() => t.close());

let titles = 0;
const publishedBook = (author: TestUser) =>
  createBook(t.app, author, `Serial ${++titles}`, { published: true });
const inAMinute = () => new Date(Date.now() + 60_000).toISOString();
const inTwoMinutes = () => new Date(Date.now() + 120_000).toISOString();
const put = (who: TestUser | null, bookId: number, chapterId: number, body: object) =>
  as(t.app, who).put(`/api/books/${bookId}/chapters/${chapterId}`, body);
const inbox = async (who: TestUser) =>
  (await as(t.app, who).get('/api/my/notifications?limit=100')).json()
    .notifications as Notification[];
const followAuthor = async (reader: TestUser, author: TestUser) =>
  expect((await as(t.app, reader).post('/api/follows', { author_id: author.id })).statusCode).toBe(
    201,
  );
const followBook = async (reader: TestUser, bookId: number) =>
  expect((await as(t.app, reader).post(`/api/books/${bookId}/follow`)).statusCode).toBe(200);
/**
 * A new published book of the author's and three readers who hear of it: one follows the author,
 * one the book, one both (who must hear once).
 */
async function followedBook(author: TestUser) {
  const followers = [await signup(t.app), await signup(t.app), await signup(t.app)] as const;
  const [byAuthor, byBook, byBoth] = followers;
  const book = await publishedBook(author);
  await followAuthor(byAuthor, author);
  await followBook(byBook, book.id);
  await followAuthor(byBoth, author);
  await followBook(byBoth, book.id);
  return { book, followers };
}
/** A chapter of a new published book, scheduled a minute from now, and a reader who follows its author. */
async function scheduledForAFollower(title: string) {
  const author = await signup(t.app);
  const reader = await signup(t.app);
  await followAuthor(reader, author);
  const book = await publishedBook(author);
  const chapter = await createChapter(t.app, author, book.id, { title });
  await put(author, book.id, chapter.id, { publish_at: inAMinute() });
  return { author, reader, book, chapter };
}
const liveSocket = (user: TestUser) =>
  connect(`${base}/ws?token=${encodeURIComponent(user.token)}`);

describe('scheduling a chapter', () => {
  it('stores publish_at in UTC, shows it to the author only, and null cancels it', async () => {
    const author = await signup(t.app);
    const book = await publishedBook(author);
    const chapter = await createChapter(t.app, author, book.id, { title: 'Later' });
    const when = new Date(Date.now() + 3_600_000);
    when.setUTCMilliseconds(0);
    // An offset other than Z: answered as the same instant in UTC.
    const local = new Date(when.getTime() + 2 * 3_600_000).toISOString().replace('Z', '+02:00');

    const scheduled = await put(author, book.id, chapter.id, { publish_at: local });
    expect(scheduled.statusCode).toBe(200);
    expect(scheduled.json()).toMatchObject({ is_published: false, publish_at: when.toISOString() });
    const listed = (await as(t.app, author).get(`/api/authors/books/${book.id}/chapters`)).json();
    expect(listed.chapters[0].publish_at).toBe(when.toISOString());
    expect((await as(t.app, author).get(`/api/chapters/${chapter.id}`)).json().publish_at).toBe(
      when.toISOString(),
    );

    const cancelled = await put(author, book.id, chapter.id, { publish_at: null });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().publish_at).toBeNull();
  });

  it('never shows publish_at to anyone but the author', async () => {
    const author = await signup(t.app);
    const reader = await signup(t.app);
    const book = await publishedBook(author);
    const open = await createChapter(t.app, author, book.id, { title: 'Out' }, { published: true });
    const later = await createChapter(t.app, author, book.id, { title: 'Soon' });
    expect((await put(author, book.id, later.id, { publish_at: inAMinute() })).statusCode).toBe(
      200,
    );
    for (const who of [null, reader]) {
      const list = (await as(t.app, who).get(`/api/books/${book.id}/chapters`)).json();
      expect(list.chapters.map((c: { id: number }) => c.id)).toEqual([open.id]);
      expect(list.chapters[0]).not.toHaveProperty('publish_at');
      const read = (await as(t.app, who).get(`/api/chapters/${open.id}`)).json();
      expect(read).not.toHaveProperty('publish_at');
      // The scheduled draft is a draft: nothing at all.
      expect((await as(t.app, who).get(`/api/chapters/${later.id}`)).statusCode).toBe(404);
    }
  });

  it('refuses a time in the past, a time that is not an instant, and a schedule sent with is_published', async () => {
    const author = await signup(t.app);
    const book = await publishedBook(author);
    const chapter = await createChapter(t.app, author, book.id);
    for (const [body, detail] of [
      [
        { publish_at: new Date(Date.now() - 1_000).toISOString() },
        'publish_at must be in the future',
      ],
      [{ publish_at: 'next tuesday' }, undefined],
      [{ publish_at: '2030-01-01T10:00:00' }, undefined],
      [
        { publish_at: inAMinute(), is_published: false },
        'Send publish_at or is_published, not both',
      ],
    ] as const) {
      const res = await put(author, book.id, chapter.id, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation');
      if (detail) expect(res.json().detail).toBe(detail);
    }
    expect((await as(t.app, author).get(`/api/chapters/${chapter.id}`)).json().publish_at).toBe(
      null,
    );
  });

  it("refuses a published chapter with 409, and someone else's chapter with 403 or 404", async () => {
    const author = await signup(t.app);
    const other = await signup(t.app);
    const book = await publishedBook(author);
    const draftBook = await createBook(t.app, author, `Hidden ${++titles}`);
    const out = await createChapter(t.app, author, book.id, {}, { published: true });
    const draft = await createChapter(t.app, author, book.id);
    const hidden = await createChapter(t.app, author, draftBook.id);

    const again = await put(author, book.id, out.id, { publish_at: inAMinute() });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      detail: 'This chapter is already published: only a draft can be scheduled',
      code: 'conflict',
    });
    // Cancelling is refused too: a cancel that lost the race to the release did not cancel it.
    const cancel = await put(author, book.id, out.id, { publish_at: null });
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().code).toBe('conflict');
    // Other fields of a published chapter change as before.
    expect((await put(author, book.id, out.id, { comments_locked: true })).statusCode).toBe(200);
    expect((await put(author, book.id, out.id, { is_published: true })).statusCode).toBe(200);
    expect((await put(other, book.id, draft.id, { publish_at: inAMinute() })).statusCode).toBe(403);
    expect(
      (await put(other, draftBook.id, hidden.id, { publish_at: inAMinute() })).statusCode,
    ).toBe(404);
    expect((await put(null, book.id, draft.id, { publish_at: inAMinute() })).statusCode).toBe(401);
    const listed = (await as(t.app, author).get(`/api/authors/books/${book.id}/chapters`)).json();
    expect(listed.chapters.map((c: { publish_at: string | null }) => c.publish_at)).toEqual([
      null,
      null,
    ]);
  });

  it('is cancelled by publishing by hand, which notifies once', async () => {
    const { author, reader, book, chapter } = await scheduledForAFollower('Early');
    const published = await put(author, book.id, chapter.id, { is_published: true });
    expect(published.json()).toMatchObject({ is_published: true, publish_at: null });
    // Its time coming later publishes nothing more (other tests' chapters may be released here).
    await releaseDueChapters(t.ctx, inTwoMinutes());
    expect((await inbox(reader)).filter((n) => n.chapter_id === chapter.id)).toHaveLength(1);
  });
});

describe('the release', () => {
  it('publishes a due chapter within 5 s by itself, and its followers hear of it once, live', async () => {
    const author = await signup(t.app);
    const { book, followers } = await followedBook(author);
    const [byAuthor, byBook, byBoth] = followers;
    const sockets = await Promise.all(followers.map(liveSocket));
    const chapter = await createChapter(t.app, author, book.id, { title: 'On Time' });
    const due = Date.now() + 1_500;
    const res = await put(author, book.id, chapter.id, { publish_at: new Date(due).toISOString() });
    expect(res.statusCode).toBe(200);

    for (const socket of sockets) {
      expect(await socket.next((m) => m.type === 'CHAPTER', 8_000)).toEqual({
        type: 'CHAPTER',
        message: `New chapter of "${book.title}" by ${author.username}: On Time`,
        book_id: book.id,
        chapter_id: chapter.id,
      });
    }
    expect(Date.now() - due).toBeLessThan(5_000);
    const read = await as(t.app).get(`/api/chapters/${chapter.id}`);
    expect(read.statusCode).toBe(200);
    expect((await as(t.app, author).get(`/api/chapters/${chapter.id}`)).json()).toMatchObject({
      is_published: true,
      publish_at: null,
    });
    for (const reader of [byAuthor, byBook, byBoth])
      expect((await inbox(reader)).filter((n) => n.chapter_id === chapter.id)).toHaveLength(1);
    for (const socket of sockets) expect(await socket.drain(300)).toEqual([]);
    // The book's feed and the public list have it, as for a chapter published by hand.
    const list = (await as(t.app).get(`/api/books/${book.id}/chapters`)).json();
    expect(list.chapters.map((c: { id: number }) => c.id)).toEqual([chapter.id]);
    const feed = await as(t.app).get(`/api/books/${book.id}/feed.atom`);
    expect(feed.body).toContain(`urn:inkwell:chapter:${chapter.id}`);
  });

  it('publishes each due chapter once when several releases run at once, on two apps', async () => {
    const second = await createTestApp({}, { database: t.database });
    try {
      const author = await signup(t.app);
      const reader = await signup(t.app);
      await followAuthor(reader, author);
      const book = await publishedBook(author);
      const chapters = [];
      // Later than anything earlier tests scheduled, which the first release below takes first,
      // so the race releases exactly ours.
      const at = new Date(Date.now() + 90_000).toISOString();
      for (let i = 0; i < 3; i++) {
        const chapter = await createChapter(t.app, author, book.id, { title: `Race ${i}` });
        await put(author, book.id, chapter.id, { publish_at: at });
        chapters.push(chapter);
      }
      await releaseDueChapters(t.ctx, new Date(Date.parse(at) - 1).toISOString());
      const counts = await Promise.all([
        releaseDueChapters(t.ctx, at),
        releaseDueChapters(second.ctx, at),
        releaseDueChapters(t.ctx, at),
        releaseDueChapters(second.ctx, at),
      ]);
      const ours = await inbox(reader);
      for (const chapter of chapters)
        expect(ours.filter((n) => n.chapter_id === chapter.id)).toHaveLength(1);
      // The inbox would hide a double publication (one row per reader and chapter): the
      // releases themselves say each chapter was published by one of them.
      expect(counts.reduce((a, b) => a + b, 0)).toBe(3);
      const listed = (await as(t.app, author).get(`/api/authors/books/${book.id}/chapters`)).json();
      expect(
        listed.chapters.map((c: { is_published: boolean; publish_at: null }) => [
          c.is_published,
          c.publish_at,
        ]),
      ).toEqual([
        [true, null],
        [true, null],
        [true, null],
      ]);
    } finally {
      await second.close();
    }
  });

  it('writes the followers’ notifications with the publication, so a process ending after it loses none', async () => {
    const author = await signup(t.app);
    const reader = await signup(t.app);
    await followAuthor(reader, author);
    const book = await publishedBook(author);
    const chapter = await createChapter(t.app, author, book.id, { title: 'Last Words' });
    await put(author, book.id, chapter.id, { publish_at: inAMinute() });
    // The process stops right after the release's commit: its event never goes out.
    const publish = vi.spyOn(t.ctx.events, 'publish').mockResolvedValue(undefined);
    try {
      const target = { bookId: book.id, chapterId: chapter.id };
      expect(await releaseScheduledChapter(t.ctx, author, target, inTwoMinutes())).toBe(true);
      expect(publish).toHaveBeenCalled();
    } finally {
      publish.mockRestore();
    }
    const told = (await inbox(reader)).filter((n) => n.chapter_id === chapter.id);
    expect(told.map((n) => n.message)).toEqual([
      `New chapter of "${book.title}" by ${author.username}: Last Words`,
    ]);
  });

  it('keeps one publish version for a release, however many runs race for it', async () => {
    const author = await signup(t.app);
    const book = await publishedBook(author);
    const chapter = await createChapter(t.app, author, book.id, { title: 'Kept once' });
    await put(author, book.id, chapter.id, { publish_at: inAMinute() });
    const later = inTwoMinutes();
    await Promise.all([releaseDueChapters(t.ctx, later), releaseDueChapters(t.ctx, later)]);
    const kept = (await as(t.app, author).get(`/api/chapters/${chapter.id}/revisions`)).json();
    expect(kept.revisions.map((v: { kind: string }) => v.kind)).toEqual(['publish', 'save']);
  });

  it('publishes a chapter of a draft book that stays private with its book, and tells no one', async () => {
    const author = await signup(t.app);
    const reader = await signup(t.app);
    await followAuthor(reader, author);
    const book = await createBook(t.app, author, `Unreleased ${++titles}`);
    const chapter = await createChapter(t.app, author, book.id, { title: 'Hidden' });
    await put(author, book.id, chapter.id, { publish_at: inAMinute() });
    await releaseDueChapters(t.ctx, inTwoMinutes());
    expect((await as(t.app, author).get(`/api/chapters/${chapter.id}`)).json()).toMatchObject({
      is_published: true,
      publish_at: null,
    });
    expect((await as(t.app).get(`/api/chapters/${chapter.id}`)).statusCode).toBe(404);
    expect((await as(t.app, reader).get(`/api/books/${book.id}`)).statusCode).toBe(404);
    expect((await inbox(reader)).filter((n) => n.chapter_id === chapter.id)).toEqual([]);
    // Publishing the book later is not news either, as for a chapter published by hand.
    await as(t.app, author).put(`/api/books/${book.id}`, { is_published: true });
    expect((await as(t.app).get(`/api/chapters/${chapter.id}`)).statusCode).toBe(200);
    expect((await inbox(reader)).filter((n) => n.chapter_id === chapter.id)).toEqual([]);
  });

  it("holds a suspended author's schedule, and releases it once the suspension is lifted", async () => {
    const { author, reader, chapter } = await scheduledForAFollower('Held');
    // As the operator's suspend command leaves the account (its sessions end; a test keeps one).
    const suspend = (suspended_at: string | null) =>
      t.ctx.db.updateTable('users').set({ suspended_at }).where('id', '=', author.id).execute();
    await suspend(new Date().toISOString());
    await releaseDueChapters(t.ctx, inTwoMinutes());
    expect((await as(t.app).get(`/api/chapters/${chapter.id}`)).statusCode).toBe(404);
    expect((await inbox(reader)).filter((n) => n.chapter_id === chapter.id)).toEqual([]);
    await suspend(null);
    await releaseDueChapters(t.ctx, inTwoMinutes());
    expect((await as(t.app).get(`/api/chapters/${chapter.id}`)).statusCode).toBe(200);
    expect((await inbox(reader)).filter((n) => n.chapter_id === chapter.id)).toHaveLength(1);
  });

  it('leaves a chapter whose schedule was cancelled or moved later', async () => {
    const author = await signup(t.app);
    const book = await publishedBook(author);
    const cancelled = await createChapter(t.app, author, book.id);
    const moved = await createChapter(t.app, author, book.id);
    await put(author, book.id, cancelled.id, { publish_at: inAMinute() });
    await put(author, book.id, cancelled.id, { publish_at: null });
    await put(author, book.id, moved.id, { publish_at: inAMinute() });
    const farther = new Date(Date.now() + 3_600_000).toISOString();
    await put(author, book.id, moved.id, { publish_at: farther });
    await releaseDueChapters(t.ctx, inTwoMinutes());
    const listed = (await as(t.app, author).get(`/api/authors/books/${book.id}/chapters`)).json();
    expect(
      listed.chapters.map((c: { is_published: boolean; publish_at: string | null }) => [
        c.is_published,
        c.publish_at,
      ]),
    ).toEqual([
      [false, null],
      [false, farther],
    ]);
    // Asked to release them at the time they once had, the release finds nothing to do.
    const due = { bookId: book.id };
    for (const chapter of [cancelled, moved])
      expect(
        await releaseScheduledChapter(
          t.ctx,
          author,
          { ...due, chapterId: chapter.id },
          inTwoMinutes(),
        ),
      ).toBe(false);
    // Nor does it publish a chapter never scheduled, or release one twice.
    const once = await createChapter(t.app, author, book.id);
    await put(author, book.id, once.id, { publish_at: inAMinute() });
    const target = { ...due, chapterId: once.id };
    expect(await releaseScheduledChapter(t.ctx, author, target, inTwoMinutes())).toBe(true);
    expect(await releaseScheduledChapter(t.ctx, author, target, inTwoMinutes())).toBe(false);
    const never = await createChapter(t.app, author, book.id);
    expect(
      await releaseScheduledChapter(t.ctx, author, { ...due, chapterId: never.id }, inTwoMinutes()),
    ).toBe(false);
    const after = (await as(t.app, author).get(`/api/authors/books/${book.id}/chapters`)).json();
    expect(after.chapters.map((c: { is_published: boolean }) => c.is_published)).toEqual([
      false,
      false,
      true,
      false,
    ]);
  });
});

describe("the book page's schedule", () => {
  it('shows the schedule line always and the next release only when the author chose to', async () => {
    const author = await signup(t.app);
    const book = await publishedBook(author);
    const [first, second] = [
      await createChapter(t.app, author, book.id),
      await createChapter(t.app, author, book.id),
    ];
    const soon = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const later = new Date(Date.now() + 5 * 86_400_000).toISOString();
    await put(author, book.id, first.id, { publish_at: later });
    await put(author, book.id, second.id, { publish_at: soon });

    const hidden = (await as(t.app).get(`/api/books/${book.id}`)).json();
    expect(hidden).toMatchObject({ show_next_release: false, schedule_note: '' });
    expect(hidden).not.toHaveProperty('next_release_at');

    const set = await as(t.app, author).put(`/api/books/${book.id}`, {
      show_next_release: true,
      schedule_note: '  New chapters every Tuesday and Friday ',
    });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({
      show_next_release: true,
      schedule_note: 'New chapters every Tuesday and Friday',
      next_release_at: soon,
    });
    // A visitor's (cached) read follows the change.
    expect((await as(t.app).get(`/api/books/${book.id}`)).json()).toMatchObject({
      schedule_note: 'New chapters every Tuesday and Friday',
      next_release_at: soon,
    });
    await put(author, book.id, second.id, { publish_at: null });
    expect((await as(t.app).get(`/api/books/${book.id}`)).json().next_release_at).toBe(later);
    await put(author, book.id, first.id, { publish_at: null });
    expect((await as(t.app).get(`/api/books/${book.id}`)).json().next_release_at).toBeNull();
    // Cards (lists) stay as they were.
    const mine = (await as(t.app, author).get('/api/my/books')).json();
    expect(mine.find((b: { id: number }) => b.id === book.id)).not.toHaveProperty('schedule_note');
  });

  it('refuses a schedule line that is too long, and anyone but the author', async () => {
    const author = await signup(t.app);
    const other = await signup(t.app);
    const book = await publishedBook(author);
    const long = await as(t.app, author).put(`/api/books/${book.id}`, {
      schedule_note: 'x'.repeat(SCHEDULE_NOTE_MAX_LENGTH + 1),
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().code).toBe('validation');
    const theirs = await as(t.app, other).put(`/api/books/${book.id}`, { show_next_release: true });
    expect(theirs.statusCode).toBe(403);
    expect((await as(t.app).get(`/api/books/${book.id}`)).json().show_next_release).toBe(false);
  });
});

describe("author's notes", () => {
  it('are sanitized, answered with the chapter, and never counted or searched', async () => {
    const author = await signup(t.app);
    const book = await publishedBook(author);
    const chapter = await createChapter(
      t.app,
      author,
      book.id,
      { title: 'Noted', content: '<p>Three words here</p>' },
      { published: true },
    );
    const res = await put(author, book.id, chapter.id, {
      note_before: '<p>Thanks <strong>zanzibarquux</strong> readers!</p><script>alert(1)</script>',
      note_after: '<p onclick="x()">See you Friday</p>',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      note_before: '<p>Thanks <strong>zanzibarquux</strong> readers!</p>',
      note_after: '<p>See you Friday</p>',
      word_count: 3,
    });
    const read = (await as(t.app).get(`/api/chapters/${chapter.id}`)).json();
    expect(read).toMatchObject({
      content: '<p>Three words here</p>',
      note_before: '<p>Thanks <strong>zanzibarquux</strong> readers!</p>',
      note_after: '<p>See you Friday</p>',
      word_count: 3,
    });
    const listed = (await as(t.app).get(`/api/books/${book.id}/chapters`)).json();
    expect(listed.chapters[0].word_count).toBe(3);
    expect(listed.chapters[0]).not.toHaveProperty('note_before');

    await t.ctx.searchIndexer.flush();
    const search = (await as(t.app).get('/api/books/search?q=zanzibarquux')).json();
    expect(search.books).toEqual([]);
    const control = (await as(t.app).get('/api/books/search?q=%22three%20words%20here%22')).json();
    expect(control.books.map((b: { id: number }) => b.id)).toContain(book.id);

    // A blank note is no note.
    const cleared = await put(author, book.id, chapter.id, { note_before: '<p> </p>' });
    expect(cleared.json().note_before).toBe('');
  });

  it('are the author’s to set only, and have a length limit', async () => {
    const author = await signup(t.app);
    const other = await signup(t.app);
    const book = await publishedBook(author);
    const chapter = await createChapter(t.app, author, book.id, {}, { published: true });
    expect((await put(other, book.id, chapter.id, { note_after: '<p>mine</p>' })).statusCode).toBe(
      403,
    );
    const long = await put(author, book.id, chapter.id, { note_after: 'x'.repeat(20_001) });
    expect(long.statusCode).toBe(400);
    expect((await as(t.app).get(`/api/chapters/${chapter.id}`)).json().note_after).toBe('');
  });
});

describe('announcements', () => {
  const post = (who: TestUser | null, bookId: number, body: object) =>
    as(t.app, who).post(`/api/books/${bookId}/announcements`, body);
  const list = (who: TestUser | null, bookId: number) =>
    as(t.app, who).get(`/api/books/${bookId}/announcements`);

  it('are posted by the author (201, sanitized) and listed newest first to whoever sees the book', async () => {
    const author = await signup(t.app);
    const book = await publishedBook(author);
    const first = await post(author, book.id, {
      title: 'Hiatus',
      body: '<p>Back in <em>March</em></p><img src=x onerror=alert(1)>',
    });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({
      id: expect.any(Number),
      title: 'Hiatus',
      body: '<p>Back in <em>March</em></p>',
      created_at: expect.any(String),
    });
    const second = (await post(author, book.id, { title: 'Back', body: 'We are back' })).json();
    const listed = await list(null, book.id);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual({ announcements: [second, first.json()] });
    // Never in the chapter list, its numbering or counts.
    expect((await as(t.app).get(`/api/books/${book.id}/chapters`)).json().chapters).toEqual([]);
    expect((await as(t.app).get(`/api/books/${book.id}`)).json().chapter_count).toBe(0);
    // In the book's feed.
    const feed = await as(t.app).get(`/api/books/${book.id}/feed.atom`);
    expect(feed.body).toContain(`urn:inkwell:announcement:${second.id}`);
    expect(feed.body).toContain('Announcement: Back');
  });

  it('refuses anyone but the author, blank or too long input, and keeps a draft book’s private', async () => {
    const author = await signup(t.app);
    const other = await signup(t.app);
    const book = await publishedBook(author);
    const draft = await createBook(t.app, author, `Quiet ${++titles}`);
    expect((await post(null, book.id, { title: 'a', body: 'b' })).statusCode).toBe(401);
    expect((await post(other, book.id, { title: 'a', body: 'b' })).statusCode).toBe(403);
    expect((await post(other, draft.id, { title: 'a', body: 'b' })).statusCode).toBe(404);
    for (const body of [
      { title: '', body: 'b' },
      { title: 'a', body: '<p> </p>' },
      { title: 'a', body: '<script>x()</script>' },
      { title: 'x'.repeat(ANNOUNCEMENT_TITLE_MAX_LENGTH + 1), body: 'b' },
      { title: 'a' },
    ]) {
      const res = await post(author, book.id, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation');
    }
    expect((await list(null, book.id)).json().announcements).toEqual([]);

    expect((await post(author, draft.id, { title: 'Soon', body: 'Shh' })).statusCode).toBe(201);
    expect((await list(null, draft.id)).statusCode).toBe(404);
    expect((await list(other, draft.id)).statusCode).toBe(404);
    expect((await list(author, draft.id)).json().announcements).toHaveLength(1);
  });

  it('are deleted by the author only; anyone else gets 404', async () => {
    const author = await signup(t.app);
    const other = await signup(t.app);
    const book = await publishedBook(author);
    const made = (await post(author, book.id, { title: 'Oops', body: 'Typo' })).json();
    for (const who of [other]) {
      const res = await as(t.app, who).delete(`/api/announcements/${made.id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Announcement not found', code: 'not_found' });
    }
    expect((await as(t.app).delete(`/api/announcements/${made.id}`)).statusCode).toBe(401);
    expect((await list(null, book.id)).json().announcements).toHaveLength(1);
    const gone = await as(t.app, author).delete(`/api/announcements/${made.id}`);
    expect(gone.statusCode).toBe(200);
    expect((await list(null, book.id)).json().announcements).toEqual([]);
    expect((await as(t.app, author).delete(`/api/announcements/${made.id}`)).statusCode).toBe(404);
  });

  it('notify the followers of the book and of the author once each, live and in the inbox; not the blocked', async () => {
    const author = await signup(t.app);
    const { book, followers } = await followedBook(author);
    const [byAuthor, byBook, byBoth] = followers;
    const [pest, stranger] = [await signup(t.app), await signup(t.app)];
    await followAuthor(pest, author);
    await as(t.app, author).post('/api/my/blocks', { username: pest.username });
    const sockets = await Promise.all([...followers, pest, stranger].map(liveSocket));

    const made = (await post(author, book.id, { title: 'Art contest', body: 'Draw them!' })).json();
    const expected = {
      type: 'ANNOUNCEMENT',
      message: `Announcement on "${book.title}" by ${author.username}: Art contest`,
      book_id: book.id,
      announcement_id: made.id,
    };
    for (const socket of sockets.slice(0, 3)) expect(await socket.next()).toEqual(expected);
    for (const socket of sockets) expect(await socket.drain(300)).toEqual([]);
    for (const reader of [byAuthor, byBook, byBoth]) {
      const rows = (await inbox(reader)).filter((n) => n.type === 'ANNOUNCEMENT');
      expect(rows).toEqual([
        {
          id: expect.any(Number),
          type: 'ANNOUNCEMENT',
          message: expected.message,
          book_id: book.id,
          chapter_id: null,
          follower: null,
          comment_id: null,
          announcement_id: made.id,
          is_read: false,
          created_at: expect.any(String),
        },
      ]);
    }
    for (const reader of [pest, stranger]) expect(await inbox(reader)).toEqual([]);
  });

  it('write the followers’ notifications with the announcement, so a process ending after it loses none', async () => {
    const author = await signup(t.app);
    const reader = await signup(t.app);
    await followAuthor(reader, author);
    const book = await publishedBook(author);
    // The process stops right after the announcement's commit: its event never goes out.
    const publish = vi.spyOn(t.ctx.events, 'publish').mockResolvedValue(undefined);
    let made: { id: number };
    try {
      made = (await post(author, book.id, { title: 'Hiatus', body: 'Back in May' })).json();
      expect(publish).toHaveBeenCalled();
    } finally {
      publish.mockRestore();
    }
    const told = (await inbox(reader)).filter((n) => n.type === 'ANNOUNCEMENT');
    expect(told.map((n) => [n.announcement_id, n.message])).toEqual([
      [made.id, `Announcement on "${book.title}" by ${author.username}: Hiatus`],
    ]);
  });

  it('of a draft book tell no one', async () => {
    const author = await signup(t.app);
    const reader = await signup(t.app);
    await followAuthor(reader, author);
    const draft = await createBook(t.app, author, `Secret ${++titles}`);
    expect((await post(author, draft.id, { title: 'Shh', body: 'Not yet' })).statusCode).toBe(201);
    expect(await inbox(reader)).toEqual([]);
  });
});
