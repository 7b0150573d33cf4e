import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
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

/** Issue 19: readers follow books. */
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
  createBook(t.app, author, `Followed book ${++titles}`, { published: true });

const followBook = (who: TestUser | null, bookId: number) =>
  as(t.app, who).post(`/api/books/${bookId}/follow`);
const unfollowBook = (who: TestUser | null, bookId: number) =>
  as(t.app, who).delete(`/api/books/${bookId}/follow`);
const followedBooks = async (who: TestUser) => {
  const res = await as(t.app, who).get('/api/my/followed-books');
  expect(res.statusCode).toBe(200);
  return res.json().books as { id: number; title: string; chapters: number; unread: number }[];
};
const inboxChapters = async (who: TestUser, chapterId: number) =>
  (await as(t.app, who).get('/api/my/notifications?limit=100'))
    .json()
    .notifications.filter(
      (n: { type: string; chapter_id: number }) =>
        n.type === 'CHAPTER' && n.chapter_id === chapterId,
    );
const publish = (author: TestUser, bookId: number, chapterId: number) =>
  as(t.app, author).put(`/api/books/${bookId}/chapters/${chapterId}`, { is_published: true });

describe('sign-in is required', () => {
  it('answers 401 to every book-follow call without a session', async () => {
    const author = await signup(t.app);
    const book = await publishedBook(author);
    for (const res of [
      await followBook(null, book.id),
      await unfollowBook(null, book.id),
      await as(t.app).get('/api/my/followed-books'),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('unauthorized');
    }
  });
});

describe('following a book', () => {
  it('follows and unfollows idempotently, answering {book_id, following, followers}', async () => {
    const author = await signup(t.app);
    const [ann, bob] = [await signup(t.app), await signup(t.app)];
    const book = await publishedBook(author);

    const first = await followBook(ann, book.id);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ book_id: book.id, following: true, followers: 1 });
    const repeat = await followBook(ann, book.id);
    expect(repeat.statusCode).toBe(200);
    expect(repeat.json()).toEqual({ book_id: book.id, following: true, followers: 1 });
    expect((await followBook(bob, book.id)).json()).toEqual({
      book_id: book.id,
      following: true,
      followers: 2,
    });

    const gone = await unfollowBook(ann, book.id);
    expect(gone.statusCode).toBe(200);
    expect(gone.json()).toEqual({ book_id: book.id, following: false, followers: 1 });
    const again = await unfollowBook(ann, book.id);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ book_id: book.id, following: false, followers: 1 });
  });

  it('accepts a form-encoded call like the other routes (no body at all)', async () => {
    const author = await signup(t.app);
    const reader = await signup(t.app);
    const book = await publishedBook(author);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/books/${book.id}/follow`,
      headers: {
        authorization: `Bearer ${reader.token}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: '',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().following).toBe(true);
  });

  it('answers 404 for a draft book of someone else and for no book, and changes nothing', async () => {
    const author = await signup(t.app);
    const reader = await signup(t.app);
    const draft = await createBook(t.app, author, `Draft ${++titles}`);
    for (const id of [draft.id, 999_999]) {
      for (const res of [await followBook(reader, id), await unfollowBook(reader, id)]) {
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ detail: 'Book not found', code: 'not_found' });
      }
    }
    expect((await as(t.app, author).get(`/api/books/${draft.id}`)).json().followers).toBe(0);
  });

  it('refuses to follow your own book with 400, draft or published', async () => {
    const author = await signup(t.app);
    for (const book of [
      await publishedBook(author),
      await createBook(t.app, author, `Own ${++titles}`),
    ]) {
      const res = await followBook(author, book.id);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: 'You cannot follow your own book', code: 'validation' });
      expect((await as(t.app, author).get(`/api/books/${book.id}`)).json().followers).toBe(0);
    }
  });

  it("refuses a user the author blocked with 403, for the author's books and the author", async () => {
    const author = await signup(t.app);
    const pest = await signup(t.app);
    const book = await publishedBook(author);
    expect(
      (await as(t.app, author).post('/api/my/blocks', { username: pest.username })).statusCode,
    ).toBe(200);

    const res = await followBook(pest, book.id);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'The author has blocked you', code: 'forbidden' });
    const followAuthor = await as(t.app, pest).post('/api/follows', { author_id: author.id });
    expect(followAuthor.statusCode).toBe(403);
    expect(followAuthor.json().code).toBe('forbidden');
    expect((await as(t.app, author).get(`/api/books/${book.id}`)).json().followers).toBe(0);
    expect((await as(t.app, pest).get(`/api/authors/${author.id}/is-following`)).json()).toBe(
      false,
    );

    // Unblocked, they may follow again.
    await as(t.app, author).delete(`/api/my/blocks/${pest.username}`);
    expect((await followBook(pest, book.id)).statusCode).toBe(200);
  });

  it("blocking removes the blocked user's follows of the blocker and of the blocker's books only", async () => {
    const author = await signup(t.app);
    const other = await signup(t.app);
    const pest = await signup(t.app);
    const [mine, theirs] = [await publishedBook(author), await publishedBook(other)];
    await followBook(pest, mine.id);
    await followBook(pest, theirs.id);
    await as(t.app, pest).post('/api/follows', { author_id: author.id });
    await as(t.app, pest).post('/api/follows', { author_id: other.id });

    await as(t.app, author).post('/api/my/blocks', { username: pest.username });
    expect((await followedBooks(pest)).map((b) => b.id)).toEqual([theirs.id]);
    expect(
      (await as(t.app, pest).get('/api/my/follows'))
        .json()
        .authors.map((a: { id: number }) => a.id),
    ).toEqual([other.id]);
    // A mute is not a block: it removes nothing.
    await as(t.app, other).post('/api/my/mutes', { username: pest.username });
    expect((await followedBooks(pest)).map((b) => b.id)).toEqual([theirs.id]);
  });
});

describe('GET /api/books/{id}', () => {
  it('carries followers for everyone, following for a signed-in viewer, and comments_locked', async () => {
    const author = await signup(t.app);
    const [ann, bob] = [await signup(t.app), await signup(t.app)];
    const book = await publishedBook(author);
    await followBook(ann, book.id);

    const visitor = (await as(t.app).get(`/api/books/${book.id}`)).json();
    expect(visitor.followers).toBe(1);
    expect(visitor).not.toHaveProperty('following');
    expect(visitor.comments_locked).toBe(false);

    expect((await as(t.app, ann).get(`/api/books/${book.id}`)).json()).toMatchObject({
      followers: 1,
      following: true,
      comments_locked: false,
    });
    expect((await as(t.app, bob).get(`/api/books/${book.id}`)).json()).toMatchObject({
      followers: 1,
      following: false,
    });
    expect((await as(t.app, author).get(`/api/books/${book.id}`)).json()).toMatchObject({
      followers: 1,
      following: false,
    });
    await t.ctx.db
      .updateTable('books')
      .set({ comments_locked: 1 })
      .where('id', '=', book.id)
      .execute();
    expect((await as(t.app, bob).get(`/api/books/${book.id}`)).json().comments_locked).toBe(true);
  });

  it("a signed-in viewer's following is right at once, even while a visitor's answer is cached", async () => {
    const author = await signup(t.app);
    const reader = await signup(t.app);
    const book = await publishedBook(author);
    expect((await as(t.app).get(`/api/books/${book.id}`)).json().followers).toBe(0);
    await followBook(reader, book.id);
    expect((await as(t.app, reader).get(`/api/books/${book.id}`)).json()).toMatchObject({
      following: true,
      followers: 1,
    });
    await unfollowBook(reader, book.id);
    expect((await as(t.app, reader).get(`/api/books/${book.id}`)).json()).toMatchObject({
      following: false,
      followers: 0,
    });
  });
});

describe('GET /api/my/followed-books', () => {
  it('lists followed books, newest follow first, with published chapters and unread counts', async () => {
    const author = await signup(t.app);
    const reader = await signup(t.app);
    const [older, newer] = [await publishedBook(author), await publishedBook(author)];
    const c1 = await createChapter(t.app, author, older.id, { title: 'One' }, { published: true });
    await createChapter(t.app, author, older.id, { title: 'Two' }, { published: true });
    await createChapter(t.app, author, older.id, { title: 'Draft' });
    expect(await followedBooks(reader)).toEqual([]);

    await followBook(reader, older.id);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await followBook(reader, newer.id);
    let list = await followedBooks(reader);
    expect(list.map((b) => [b.id, b.chapters, b.unread])).toEqual([
      [newer.id, 0, 0],
      [older.id, 2, 2],
    ]);
    // A book card: the same fields as GET /api/books/{id}'s card.
    expect(list[1]).toMatchObject({
      title: older.title,
      author_username: author.username,
      cover: null,
      chapter_count: 2,
    });

    // Reading a chapter (twice: history may hold a chapter more than once) lowers unread by one.
    await as(t.app, reader).post(`/api/books/${older.id}/chapters/${c1.id}/history`);
    await as(t.app, reader).post(`/api/books/${older.id}/chapters/${c1.id}/history`);
    list = await followedBooks(reader);
    expect(list.find((b) => b.id === older.id)).toMatchObject({ chapters: 2, unread: 1 });

    // Another reader's history counts for them only.
    const other = await signup(t.app);
    await followBook(other, older.id);
    expect((await followedBooks(other))[0]).toMatchObject({ chapters: 2, unread: 2 });
  });

  it('leaves out books unpublished since they were followed, and brings them back on publication', async () => {
    const author = await signup(t.app);
    const reader = await signup(t.app);
    const book = await publishedBook(author);
    await followBook(reader, book.id);
    await as(t.app, author).put(`/api/books/${book.id}`, { is_published: false });
    expect(await followedBooks(reader)).toEqual([]);
    await as(t.app, author).put(`/api/books/${book.id}`, { is_published: true });
    expect((await followedBooks(reader)).map((b) => b.id)).toEqual([book.id]);
  });
});

describe('CHAPTER news to followers of a book', () => {
  it('reaches a book follower live and in the inbox, once, also when they follow the author', async () => {
    const author = await signup(t.app);
    const [bookOnly, both, authorOnly, nobody] = [
      await signup(t.app),
      await signup(t.app),
      await signup(t.app),
      await signup(t.app),
    ];
    const book = await publishedBook(author);
    await followBook(bookOnly, book.id);
    await followBook(both, book.id);
    await as(t.app, both).post('/api/follows', { author_id: author.id });
    await as(t.app, authorOnly).post('/api/follows', { author_id: author.id });

    const sockets = new Map<TestUser, Awaited<ReturnType<typeof connect>>>();
    for (const user of [bookOnly, both, authorOnly, nobody])
      sockets.set(user, await connect(`${base}/ws?token=${encodeURIComponent(user.token)}`));

    const chapter = await createChapter(t.app, author, book.id, { title: 'Arrives' });
    expect((await publish(author, book.id, chapter.id)).statusCode).toBe(200);
    const isIt = (m: { type?: string; chapter_id?: unknown }) =>
      m.type === 'CHAPTER' && m.chapter_id === chapter.id;
    for (const user of [bookOnly, both, authorOnly]) {
      const socket = sockets.get(user)!;
      expect(await socket.next(isIt)).toMatchObject({ book_id: book.id, chapter_id: chapter.id });
      expect(await inboxChapters(user, chapter.id)).toHaveLength(1);
    }
    // Once: no second frame for the reader who follows both.
    expect(await sockets.get(both)!.drain(200, isIt)).toEqual([]);
    expect(await sockets.get(nobody)!.drain(0, isIt)).toEqual([]);
    expect(await inboxChapters(nobody, chapter.id)).toEqual([]);

    // Unpublishing and publishing again is not news.
    await as(t.app, author).put(`/api/books/${book.id}/chapters/${chapter.id}`, {
      is_published: false,
    });
    await publish(author, book.id, chapter.id);
    expect(await sockets.get(bookOnly)!.drain(200, isIt)).toEqual([]);
    expect(await inboxChapters(bookOnly, chapter.id)).toHaveLength(1);
  });

  it('reaches no one for a chapter published in a draft book', async () => {
    const author = await signup(t.app);
    const reader = await signup(t.app);
    const book = await publishedBook(author);
    await followBook(reader, book.id);
    await as(t.app, author).put(`/api/books/${book.id}`, { is_published: false });
    const chapter = await createChapter(
      t.app,
      author,
      book.id,
      { title: 'Hidden' },
      { published: true },
    );
    expect(await inboxChapters(reader, chapter.id)).toEqual([]);
  });

  it('reaches no user the author blocked, even one whose follows were left in place', async () => {
    const author = await signup(t.app);
    const pest = await signup(t.app);
    const book = await publishedBook(author);
    await as(t.app, author).post('/api/my/blocks', { username: pest.username });
    // Rows a block would have removed, put back by hand: the news must still not go out.
    const now = new Date().toISOString();
    await t.ctx.db
      .insertInto('book_follows')
      .values({ user_id: pest.id, book_id: book.id, created_at: now })
      .execute();
    await t.ctx.db
      .insertInto('follows')
      .values({ follower_id: pest.id, author_id: author.id, created_at: now })
      .execute();
    const socket = await connect(`${base}/ws?token=${encodeURIComponent(pest.token)}`);
    const chapter = await createChapter(
      t.app,
      author,
      book.id,
      { title: 'Not for you' },
      { published: true },
    );
    expect(await inboxChapters(pest, chapter.id)).toEqual([]);
    expect(await socket.drain(200, (m) => m.type === 'CHAPTER')).toEqual([]);
  });
});

describe("the reader's private feed", () => {
  it('includes chapters of followed books, once when the author is followed too', async () => {
    const author = await signup(t.app);
    const stranger = await signup(t.app);
    const reader = await signup(t.app);
    const followed = await publishedBook(author);
    const notFollowed = await publishedBook(stranger);
    await createChapter(t.app, author, followed.id, { title: 'In the feed' }, { published: true });
    await createChapter(
      t.app,
      stranger,
      notFollowed.id,
      { title: 'Not in it' },
      { published: true },
    );
    await followBook(reader, followed.id);

    const url = new URL((await as(t.app, reader).post('/api/my/feed-token')).json().url).pathname;
    const entries = async () => {
      const res = await as(t.app).get(url);
      expect(res.statusCode).toBe(200);
      return res.body.match(/<entry>/g)?.length ?? 0;
    };
    let body = (await as(t.app).get(url)).body;
    expect(body).toContain(`${followed.title}: In the feed`);
    expect(body).not.toContain('Not in it');
    expect(await entries()).toBe(1);

    await as(t.app, reader).post('/api/follows', { author_id: author.id });
    expect(await entries()).toBe(1);
    body = (await as(t.app).get(url)).body;
    expect(body.split(`${followed.title}: In the feed`)).toHaveLength(2);
  });
});
