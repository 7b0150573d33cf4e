import { COMMENT_MAX_LENGTH } from '@inkwell/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addToList } from '../../src/modules/blocks/blocks.service.ts';
import {
  as,
  createBook,
  createTestApp,
  signup,
  type TestApp,
  type TestUser,
} from '../helpers/app.ts';
import { createChapter } from '../helpers/chapters.ts';

/**
 * Issue 19, "Comments", "Chapter likes" and the lock of "The author in control", on both engines.
 * The main app keeps the default comment limit (5 a minute per user), so each test user writes
 * at most five comments; the rate limit has its own test.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/;

interface Place {
  author: TestUser;
  book: { id: number };
  chapter: { id: number; version: number };
}

/** A published book with one published chapter of three paragraphs, by a new author. */
async function publishedChapter(): Promise<Place> {
  const author = await signup(t.app);
  const book = await createBook(t.app, author, `Book of ${author.username}`, { published: true });
  const chapter = await createChapter(
    t.app,
    author,
    book.id,
    { title: 'One', content: '<p>First</p><p>Second</p>\n<blockquote><p>Third</p></blockquote>' },
    { published: true },
  );
  return { author, book, chapter };
}

const post = (user: TestUser, chapterId: number, body: Record<string, unknown>) =>
  as(t.app, user).post(`/api/chapters/${chapterId}/comments`, body);

async function comment(user: TestUser, chapterId: number, body: Record<string, unknown>) {
  const res = await post(user, chapterId, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; [field: string]: unknown };
}

const list = async (viewer: TestUser | null, chapterId: number, query = '') => {
  const res = await as(t.app, viewer).get(`/api/chapters/${chapterId}/comments${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { comments: Array<Record<string, unknown>>; next_cursor: string | null };
};

const replies = async (viewer: TestUser | null, commentId: number) => {
  const res = await as(t.app, viewer).get(`/api/comments/${commentId}/replies`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().comments as Array<Record<string, unknown>>;
};

const counts = async (viewer: TestUser | null, chapterId: number) => {
  const res = await as(t.app, viewer).get(`/api/chapters/${chapterId}/comment-counts`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

/** A block or mute through the blocks service, as the /api/my/blocks routes make one. */
const onList = (kind: 'block' | 'mute', owner: TestUser, other: TestUser) =>
  addToList(
    t.ctx,
    { id: owner.id, username: owner.username, sessionId: 0, signedInAt: '' },
    kind,
    other.username,
  );

describe('writing a comment', () => {
  it('answers 201 with the whole comment, sanitized, and lists it', async () => {
    const { author, chapter } = await publishedChapter();
    const reader = await signup(t.app);
    const res = await post(reader, chapter.id, {
      body: '<p>Loved <b>this</b> <span class="spoiler">he dies</span></p>',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(Number),
      chapter_id: chapter.id,
      parent_id: null,
      paragraph: null,
      body: '<p>Loved <strong>this</strong> <span class="spoiler">he dies</span></p>',
      user: {
        id: reader.id,
        username: reader.username,
        first_name: '',
        last_name: '',
        avatar: null,
      },
      created_at: expect.stringMatching(ISO),
      edited_at: null,
      deleted: false,
      likes: 0,
      liked: false,
      by_author: false,
      reply_count: 0,
    });
    const byAuthor = await comment(author, chapter.id, { body: 'Thank you all' });
    expect(byAuthor.by_author).toBe(true);
    expect((await list(null, chapter.id)).comments.map((c) => c.id)).toEqual([
      byAuthor.id,
      res.json().id,
    ]);
  });

  it('refuses an empty body, one over 10,000 characters, and a paragraph past the last', async () => {
    const { chapter } = await publishedChapter();
    const reader = await signup(t.app);
    for (const body of ['', '   ', '<p> </p>', '<img src="x.png">', '<script>alert(1)</script>']) {
      const res = await post(reader, chapter.id, { body });
      expect(res.statusCode, body).toBe(400);
      expect(res.json().code).toBe('validation');
    }
    const long = await post(reader, chapter.id, { body: 'a'.repeat(COMMENT_MAX_LENGTH + 1) });
    expect(long.statusCode).toBe(400);
    // Refused attempts count against the limit too (5 a minute): another reader goes on.
    const second = await signup(t.app);
    // The chapter has three top-level blocks: 0, 1 and 2.
    const beyond = await post(second, chapter.id, { body: 'here', paragraph: 3 });
    expect(beyond.statusCode).toBe(400);
    expect(beyond.json().detail).toMatch(/paragraph/);
    const last = await comment(second, chapter.id, { body: 'here', paragraph: 2 });
    expect(last.paragraph).toBe(2);
    const longest = await comment(second, chapter.id, { body: 'b'.repeat(COMMENT_MAX_LENGTH) });
    expect(longest.body).toBe('b'.repeat(COMMENT_MAX_LENGTH));
  });

  it('answers 404 for a chapter the viewer may not see, and 401 without a session', async () => {
    const { author, book } = await publishedChapter();
    const draft = await createChapter(t.app, author, book.id, { title: 'Draft' });
    const reader = await signup(t.app);
    expect((await post(reader, draft.id, { body: 'peek' })).statusCode).toBe(404);
    expect((await as(t.app, reader).get(`/api/chapters/${draft.id}/comments`)).statusCode).toBe(
      404,
    );
    expect(
      (await as(t.app, reader).get(`/api/chapters/${draft.id}/comment-counts`)).statusCode,
    ).toBe(404);
    expect((await post(reader, 999_999, { body: 'none' })).statusCode).toBe(404);
    expect(
      (await as(t.app).post(`/api/chapters/${draft.id}/comments`, { body: 'x' })).statusCode,
    ).toBe(401);
    // The author may comment on their own draft (a note to early readers later on).
    await comment(author, draft.id, { body: 'mine' });
  });

  it('is refused with 403 on a locked chapter or book; locked comments stay readable', async () => {
    const { author, book, chapter } = await publishedChapter();
    const reader = await signup(t.app);
    const before = await comment(reader, chapter.id, { body: 'before the lock' });

    const locked = await as(t.app, author).put(`/api/books/${book.id}/chapters/${chapter.id}`, {
      comments_locked: true,
    });
    expect(locked.statusCode).toBe(200);
    expect(locked.json().comments_locked).toBe(true);
    expect((await as(t.app).get(`/api/chapters/${chapter.id}`)).json().comments_locked).toBe(true);
    const refused = await post(reader, chapter.id, { body: 'after' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: 'Comments are locked here', code: 'forbidden' });
    expect((await list(reader, chapter.id)).comments.map((c) => c.id)).toEqual([before.id]);

    await as(t.app, author).put(`/api/books/${book.id}/chapters/${chapter.id}`, {
      comments_locked: false,
    });
    const bookLocked = await as(t.app, author).put(`/api/books/${book.id}`, {
      comments_locked: true,
    });
    expect(bookLocked.statusCode).toBe(200);
    expect(bookLocked.json().comments_locked).toBe(true);
    expect((await as(t.app).get(`/api/books/${book.id}`)).json().comments_locked).toBe(true);
    expect((await post(reader, chapter.id, { body: 'after' })).statusCode).toBe(403);
    // Replies too.
    expect((await post(reader, chapter.id, { body: 're', parent_id: before.id })).statusCode).toBe(
      403,
    );

    await as(t.app, author).put(`/api/books/${book.id}`, { comments_locked: false });
    await comment(reader, chapter.id, { body: 'open again' });
    // Only the author locks.
    const stranger = await as(t.app, reader).put(`/api/books/${book.id}`, {
      comments_locked: true,
    });
    expect(stranger.statusCode).toBe(403);
  });
});

describe('threads', () => {
  it('keeps replies one level deep: a reply to a reply joins the thread and takes its paragraph', async () => {
    const { chapter } = await publishedChapter();
    const [ann, bob] = [await signup(t.app), await signup(t.app)];
    const top = await comment(ann, chapter.id, { body: 'top', paragraph: 1 });
    const first = await comment(bob, chapter.id, { body: 'reply', parent_id: top.id });
    const second = await comment(ann, chapter.id, {
      body: 'reply to the reply',
      parent_id: first.id,
      paragraph: 0,
    });
    expect(first).toMatchObject({ parent_id: top.id, paragraph: 1 });
    expect(second).toMatchObject({ parent_id: top.id, paragraph: 1 });
    expect((await replies(null, top.id)).map((c) => c.id)).toEqual([first.id, second.id]);
    const listed = await list(null, chapter.id);
    expect(listed.comments).toEqual([expect.objectContaining({ id: top.id, reply_count: 2 })]);
    expect(await counts(null, chapter.id)).toEqual({ total: 3, paragraphs: { '1': 3 } });
  });

  it('refuses a parent from another chapter with 400', async () => {
    const { author, book, chapter } = await publishedChapter();
    const other = await createChapter(
      t.app,
      author,
      book.id,
      { title: 'Two' },
      { published: true },
    );
    const reader = await signup(t.app);
    const elsewhere = await comment(reader, other.id, { body: 'over there' });
    const res = await post(reader, chapter.id, { body: 'here', parent_id: elsewhere.id });
    expect(res.statusCode).toBe(400);
    expect((await post(reader, chapter.id, { body: 'x', parent_id: 999_999 })).statusCode).toBe(
      400,
    );
  });
});

describe('reading comments', () => {
  it('pages newest or oldest first with an opaque cursor, null on the last page', async () => {
    const { chapter } = await publishedChapter();
    const ids: number[] = [];
    for (let i = 0; i < 2; i++) {
      const writer = await signup(t.app);
      for (let j = 0; j < 3; j++)
        ids.push((await comment(writer, chapter.id, { body: `c${i}${j}` })).id);
    }
    const seen: number[] = [];
    let query = '?limit=4';
    for (;;) {
      const page = await list(null, chapter.id, query);
      seen.push(...page.comments.map((c) => c.id as number));
      if (page.next_cursor === null) break;
      query = `?limit=4&cursor=${page.next_cursor}`;
    }
    expect(seen).toEqual([...ids].reverse());

    const oldest = await list(null, chapter.id, '?sort=oldest&limit=5');
    expect(oldest.comments.map((c) => c.id)).toEqual(ids.slice(0, 5));
    const rest = await list(null, chapter.id, `?sort=oldest&limit=5&cursor=${oldest.next_cursor}`);
    expect(rest).toEqual({
      comments: [expect.objectContaining({ id: ids[5] })],
      next_cursor: null,
    });

    for (const bad of ['?cursor=nonsense', '?sort=best', '?limit=0', '?limit=101']) {
      const res = await as(t.app).get(`/api/chapters/${chapter.id}/comments${bad}`);
      expect(res.statusCode, bad).toBe(400);
    }
  });

  it('narrows to one paragraph, and counts per paragraph', async () => {
    const { chapter } = await publishedChapter();
    const reader = await signup(t.app);
    const onFirst = await comment(reader, chapter.id, { body: 'a', paragraph: 0 });
    await comment(reader, chapter.id, { body: 'b', paragraph: 2 });
    const onFirstAgain = await comment(reader, chapter.id, { body: 'c', paragraph: 0 });
    await comment(reader, chapter.id, { body: 'whole chapter' });
    expect((await list(null, chapter.id, '?paragraph=0')).comments.map((c) => c.id)).toEqual([
      onFirstAgain.id,
      onFirst.id,
    ]);
    expect((await list(null, chapter.id, '?paragraph=1')).comments).toEqual([]);
    expect(await counts(null, chapter.id)).toEqual({ total: 4, paragraphs: { '0': 2, '2': 1 } });
  });

  it('shows a visitor a new comment at once, though visitors’ reads are cached', async () => {
    const { chapter } = await publishedChapter();
    const reader = await signup(t.app);
    expect((await list(null, chapter.id)).comments).toEqual([]);
    expect((await list(null, chapter.id)).comments).toEqual([]);
    const written = await comment(reader, chapter.id, { body: 'fresh' });
    expect((await list(null, chapter.id)).comments.map((c) => c.id)).toEqual([written.id]);
    await as(t.app, reader).put(`/api/comments/${written.id}`, { body: 'edited' });
    expect((await list(null, chapter.id)).comments[0]!.body).toBe('edited');
    await as(t.app, reader).delete(`/api/comments/${written.id}`);
    expect((await list(null, chapter.id)).comments).toEqual([]);
  });
});

describe('the answer cache', () => {
  it('keeps visitors’ chapter reads through a comment, and drops their comment reads', async () => {
    const { chapter } = await publishedChapter();
    const reader = await signup(t.app);
    const cache = t.app.answerCache!;
    const chapterRead = () => as(t.app).get(`/api/chapters/${chapter.id}`);
    await chapterRead();
    expect((await list(null, chapter.id)).comments).toEqual([]);
    await comment(reader, chapter.id, { body: 'new' });
    const hits = cache.hits;
    expect((await chapterRead()).statusCode).toBe(200);
    expect(cache.hits).toBe(hits + 1);
    expect((await list(null, chapter.id)).comments).toHaveLength(1);
    expect(cache.hits).toBe(hits + 1);
  });

  it("drops visitors' kept comment reads when the author blocks a commenter through the route", async () => {
    const { author, chapter } = await publishedChapter();
    const pest = await signup(t.app);
    await comment(pest, chapter.id, { body: 'rude' });
    // Kept for visitors now: the second read is a hit.
    expect((await list(null, chapter.id)).comments).toHaveLength(1);
    expect((await counts(null, chapter.id)).total).toBe(1);
    const block = await as(t.app, author).post('/api/my/blocks', { username: pest.username });
    expect(block.statusCode, block.body).toBeLessThan(300);
    expect((await list(null, chapter.id)).comments).toEqual([]);
    expect((await counts(null, chapter.id)).total).toBe(0);
  });
});

describe('editing and deleting', () => {
  it('lets only the writer edit, and sets edited_at', async () => {
    const { author, chapter } = await publishedChapter();
    const [writer, other] = [await signup(t.app), await signup(t.app)];
    const written = await comment(writer, chapter.id, { body: 'typo' });
    for (const someone of [other, author]) {
      const res = await as(t.app, someone).put(`/api/comments/${written.id}`, { body: 'mine now' });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('forbidden');
    }
    const edited = await as(t.app, writer).put(`/api/comments/${written.id}`, {
      body: '<h1>fixed</h1>',
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      body: '<p>fixed</p>',
      edited_at: expect.stringMatching(ISO),
    });
    expect(
      (await as(t.app, writer).put(`/api/comments/${written.id}`, { body: '' })).statusCode,
    ).toBe(400);
    expect((await as(t.app, writer).put('/api/comments/999999', { body: 'x' })).statusCode).toBe(
      404,
    );
  });

  it('lets the writer and the book’s author delete, and no one else', async () => {
    const { author, chapter } = await publishedChapter();
    const [writer, other] = [await signup(t.app), await signup(t.app)];
    const mine = await comment(writer, chapter.id, { body: 'one' });
    const theirs = await comment(writer, chapter.id, { body: 'two' });
    const refused = await as(t.app, other).delete(`/api/comments/${mine.id}`);
    expect(refused.statusCode).toBe(403);
    expect((await as(t.app, writer).delete(`/api/comments/${mine.id}`)).statusCode).toBe(200);
    expect((await as(t.app, author).delete(`/api/comments/${theirs.id}`)).statusCode).toBe(200);
    expect((await list(null, chapter.id)).comments).toEqual([]);
    expect((await as(t.app, writer).delete(`/api/comments/${mine.id}`)).statusCode).toBe(404);
  });

  it('leaves a placeholder for a comment with replies, which goes with its last reply', async () => {
    const { chapter } = await publishedChapter();
    const [ann, bob] = [await signup(t.app), await signup(t.app)];
    const top = await comment(ann, chapter.id, { body: 'top' });
    const reply = await comment(bob, chapter.id, { body: 'reply', parent_id: top.id });
    await as(t.app, ann).post(`/api/comments/${top.id}/like`);
    expect((await as(t.app, ann).delete(`/api/comments/${top.id}`)).statusCode).toBe(200);
    const [placeholder] = (await list(ann, chapter.id)).comments;
    expect(placeholder).toMatchObject({
      id: top.id,
      deleted: true,
      body: '',
      user: null,
      likes: 0,
      liked: false,
      by_author: false,
      reply_count: 1,
    });
    expect((await replies(null, top.id)).map((c) => c.id)).toEqual([reply.id]);
    expect(await counts(null, chapter.id)).toEqual({ total: 1, paragraphs: {} });
    // A placeholder can be neither edited, liked nor deleted again.
    expect((await as(t.app, ann).put(`/api/comments/${top.id}`, { body: 'back' })).statusCode).toBe(
      404,
    );
    expect((await as(t.app, bob).post(`/api/comments/${top.id}/like`)).statusCode).toBe(404);

    expect((await as(t.app, bob).delete(`/api/comments/${reply.id}`)).statusCode).toBe(200);
    expect((await list(null, chapter.id)).comments).toEqual([]);
    expect((await as(t.app).get(`/api/comments/${top.id}/replies`)).statusCode).toBe(404);
  });

  it('two deletes of one reply racing remove it once: the thread and its other replies stay', async () => {
    const { chapter } = await publishedChapter();
    const [ann, bob, cat] = [await signup(t.app), await signup(t.app), await signup(t.app)];
    const top = await comment(ann, chapter.id, { body: 'top' });
    const r1 = await comment(bob, chapter.id, { body: 'r1', parent_id: top.id });
    const r2 = await comment(cat, chapter.id, { body: 'r2', parent_id: top.id });
    expect((await as(t.app, ann).delete(`/api/comments/${top.id}`)).statusCode).toBe(200);
    // The writer and the book's author, or a double click: both deletes at once.
    const statuses = (
      await Promise.all([
        as(t.app, bob).delete(`/api/comments/${r1.id}`),
        as(t.app, bob).delete(`/api/comments/${r1.id}`),
      ])
    ).map((res) => res.statusCode);
    expect(statuses.sort()).toEqual([200, 404]);
    expect((await replies(null, top.id)).map((c) => c.id)).toEqual([r2.id]);
    expect((await list(null, chapter.id)).comments[0]).toMatchObject({
      id: top.id,
      deleted: true,
      reply_count: 1,
    });
  });

  it('a reply racing with the delete of its thread is kept under a placeholder, or refused with 400', async () => {
    const { chapter } = await publishedChapter();
    const writers = [await signup(t.app), await signup(t.app)];
    for (let round = 0; round < 4; round++) {
      const [ann, bob] = writers;
      const top = await comment(ann!, chapter.id, { body: `top ${round}` });
      const [deleted, replied] = await Promise.all([
        as(t.app, ann!).delete(`/api/comments/${top.id}`),
        post(bob!, chapter.id, { body: `reply ${round}`, parent_id: top.id }),
      ]);
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect([201, 400], replied.body).toContain(replied.statusCode);
      if (replied.statusCode === 201) {
        // The reply that was answered 201 is there, under its thread's placeholder.
        expect((await replies(null, top.id)).map((c) => c.id)).toEqual([replied.json().id]);
        await as(t.app, bob!).delete(`/api/comments/${replied.json().id}`);
      } else {
        expect(replied.json().detail).toMatch(/deleted|this chapter/);
      }
      expect((await list(null, chapter.id)).comments).toEqual([]);
    }
  });

  it('keeps the parent’s reply_count as replies come and go', async () => {
    const { chapter } = await publishedChapter();
    const [ann, bob] = [await signup(t.app), await signup(t.app)];
    const top = await comment(ann, chapter.id, { body: 'top' });
    const r1 = await comment(bob, chapter.id, { body: 'r1', parent_id: top.id });
    await comment(bob, chapter.id, { body: 'r2', parent_id: top.id });
    expect((await list(null, chapter.id)).comments[0]!.reply_count).toBe(2);
    await as(t.app, bob).delete(`/api/comments/${r1.id}`);
    expect((await list(null, chapter.id)).comments[0]).toMatchObject({
      reply_count: 1,
      deleted: false,
    });
  });
});

describe('likes', () => {
  it('likes a comment once per reader, idempotently, and shows each viewer their own', async () => {
    const { chapter } = await publishedChapter();
    const [writer, ann, bob] = [await signup(t.app), await signup(t.app), await signup(t.app)];
    const written = await comment(writer, chapter.id, { body: 'like me' });
    const url = `/api/comments/${written.id}/like`;
    expect((await as(t.app, ann).post(url)).json()).toEqual({ likes: 1, liked: true });
    expect((await as(t.app, ann).post(url)).json()).toEqual({ likes: 1, liked: true });
    expect((await as(t.app, bob).post(url)).json()).toEqual({ likes: 2, liked: true });
    expect((await list(ann, chapter.id)).comments[0]).toMatchObject({ likes: 2, liked: true });
    expect((await list(writer, chapter.id)).comments[0]).toMatchObject({ likes: 2, liked: false });
    expect((await list(null, chapter.id)).comments[0]).toMatchObject({ likes: 2, liked: false });
    expect((await as(t.app, ann).delete(url)).json()).toEqual({ likes: 1, liked: false });
    expect((await as(t.app, ann).delete(url)).json()).toEqual({ likes: 1, liked: false });
    expect((await as(t.app).post(url)).statusCode).toBe(401);
  });

  it('likes a chapter once per reader; the chapter shows likes, and liked to a signed-in viewer', async () => {
    const { book, author, chapter } = await publishedChapter();
    const [ann, bob] = [await signup(t.app), await signup(t.app)];
    const url = `/api/chapters/${chapter.id}/like`;
    const visitorRead = async () => (await as(t.app).get(`/api/chapters/${chapter.id}`)).json();
    expect(await visitorRead()).toMatchObject({ likes: 0 });
    expect((await visitorRead()).liked).toBeUndefined();

    expect((await as(t.app, ann).post(url)).json()).toEqual({ likes: 1, liked: true });
    expect((await as(t.app, ann).post(url)).json()).toEqual({ likes: 1, liked: true });
    expect((await as(t.app, bob).post(url)).json()).toEqual({ likes: 2, liked: true });
    expect((await as(t.app, ann).get(`/api/chapters/${chapter.id}`)).json()).toMatchObject({
      likes: 2,
      liked: true,
    });
    // A signed-in viewer's `liked` is never a visitor's cached answer, nor the other way round.
    expect((await as(t.app, author).get(`/api/chapters/${chapter.id}`)).json()).toMatchObject({
      likes: 2,
      liked: false,
    });
    expect((await visitorRead()).liked).toBeUndefined();
    // The author's save answers what a read shows them.
    const saved = await as(t.app, author).put(`/api/books/${book.id}/chapters/${chapter.id}`, {
      title: 'Renamed',
    });
    expect(saved.json()).toMatchObject({ likes: 2, liked: false, comments_locked: false });
    expect((await as(t.app, bob).delete(url)).json()).toEqual({ likes: 1, liked: false });
    expect((await as(t.app, bob).delete(url)).json()).toEqual({ likes: 1, liked: false });
  });

  it('answers 404 for likes of a chapter the viewer may not see', async () => {
    const { author, book } = await publishedChapter();
    const draft = await createChapter(t.app, author, book.id, { title: 'Draft' });
    const reader = await signup(t.app);
    expect((await as(t.app, reader).post(`/api/chapters/${draft.id}/like`)).statusCode).toBe(404);
    expect((await as(t.app, reader).post('/api/comments/999999/like')).statusCode).toBe(404);
  });
});

describe('blocks and mutes, in the counts and the replies', () => {
  it('neither counts nor lists replies under a thread the list hides (its writer blocked by the author)', async () => {
    const { author, chapter } = await publishedChapter();
    const [pest, reader] = [await signup(t.app), await signup(t.app)];
    const thread = await comment(pest, chapter.id, { body: 'bait', paragraph: 1 });
    const answer = await comment(reader, chapter.id, { body: 'answer', parent_id: thread.id });
    expect(await counts(null, chapter.id)).toEqual({ total: 2, paragraphs: { '1': 2 } });
    expect((await replies(null, thread.id)).map((c) => c.id)).toEqual([answer.id]);
    await onList('block', author, pest);
    expect((await list(null, chapter.id)).comments).toEqual([]);
    expect(await counts(null, chapter.id)).toEqual({ total: 0, paragraphs: {} });
    // Thread ids are sequential: asking for the hidden thread's replies by id shows nothing either.
    for (const viewer of [null, reader, author])
      expect(await replies(viewer, thread.id)).toEqual([]);
  });

  it('hides the replies of a thread whose writer the viewer muted, from that viewer only', async () => {
    const { chapter } = await publishedChapter();
    const [loud, reader, other] = [await signup(t.app), await signup(t.app), await signup(t.app)];
    const thread = await comment(loud, chapter.id, { body: 'shouting', paragraph: 1 });
    const answer = await comment(other, chapter.id, { body: 'calm', parent_id: thread.id });
    await onList('mute', reader, loud);
    expect(await replies(reader, thread.id)).toEqual([]);
    expect((await replies(other, thread.id)).map((c) => c.id)).toEqual([answer.id]);
  });
});

describe('blocks and mutes', () => {
  it('refuses a user the author blocked (comment, reply, likes) and hides their comments from everyone', async () => {
    const { author, chapter } = await publishedChapter();
    const [pest, reader] = [await signup(t.app), await signup(t.app)];
    const earlier = await comment(pest, chapter.id, { body: 'spam', paragraph: 0 });
    const readers = await comment(reader, chapter.id, { body: 'kind words' });
    await onList('block', author, pest);

    for (const res of [
      await post(pest, chapter.id, { body: 'more spam' }),
      await post(pest, chapter.id, { body: 'reply', parent_id: readers.id }),
      await as(t.app, pest).post(`/api/comments/${readers.id}/like`),
      await as(t.app, pest).post(`/api/chapters/${chapter.id}/like`),
      await as(t.app, pest).put(`/api/comments/${earlier.id}`, { body: 'edit' }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: 'The author has blocked you', code: 'forbidden' });
    }
    for (const viewer of [null, reader, author, pest]) {
      expect((await list(viewer, chapter.id)).comments.map((c) => c.id)).toEqual([readers.id]);
      expect(await counts(viewer, chapter.id)).toEqual({ total: 1, paragraphs: {} });
    }
    // The blocked writer may still delete what they wrote.
    expect((await as(t.app, pest).delete(`/api/comments/${earlier.id}`)).statusCode).toBe(200);
  });

  it('hides a muted user’s comments and replies from the muter only', async () => {
    const { chapter } = await publishedChapter();
    const [loud, muter, other] = [await signup(t.app), await signup(t.app), await signup(t.app)];
    const top = await comment(other, chapter.id, { body: 'thread' });
    const shout = await comment(loud, chapter.id, { body: 'LOUD' });
    const reply = await comment(loud, chapter.id, { body: 'LOUD REPLY', parent_id: top.id });
    await onList('mute', muter, loud);
    expect((await list(muter, chapter.id)).comments.map((c) => c.id)).toEqual([top.id]);
    expect(await replies(muter, top.id)).toEqual([]);
    expect((await list(other, chapter.id)).comments.map((c) => c.id)).toEqual([shout.id, top.id]);
    expect((await replies(null, top.id)).map((c) => c.id)).toEqual([reply.id]);
  });
});

describe('what a body may contain', () => {
  // Each vector, and what must not survive it.
  const VECTORS: Array<[string, RegExp]> = [
    ['<script>alert(1)</script>hi', /<script|alert/i],
    ['<img src=x onerror="alert(1)">hi', /<img|onerror/i],
    ['<a href="javascript:alert(1)">hi</a>', /javascript:/i],
    ['<a href="https://e.example" onclick="alert(1)" target="_blank">hi</a>', /onclick|target/i],
    [
      '<span class="spoiler" onmouseover="alert(1)" style="color:red">hi</span>',
      /onmouseover|style/i,
    ],
    ['<iframe src="https://e.example"></iframe>hi', /<iframe/i],
    ['<svg><script>alert(1)</script></svg>hi', /<svg|<script|alert/i],
    ['<p style="background:url(javascript:alert(1))">hi</p>', /style|javascript/i],
    ['<math><mi xlink:href="javascript:alert(1)">hi</mi></math>', /<math|xlink|javascript/i],
    ['<a href="//evil.example">hi</a>', /evil\.example/i],
    ['<h2>hi</h2><img src="https://e.example/a.png">', /<h2|<img/i],
    ['<form action="https://e.example"><input name="q">hi</form>', /<form|<input/i],
    ['hi<style>body{display:none}</style>', /<style|display/i],
    ['<span class="x">hi</span>', /<span/i],
  ];

  it('keeps bold, italic, strike, links (nofollow ugc noopener), line breaks and spoilers', async () => {
    const { chapter } = await publishedChapter();
    const writer = await signup(t.app);
    const kept = await comment(writer, chapter.id, {
      body: '<p><b>b</b> <i>i</i> <del>s</del><br><a href="https://e.example/x">link</a> <span class="spoiler">secret</span></p>',
    });
    expect(kept.body).toBe(
      '<p><strong>b</strong> <em>i</em> <s>s</s><br /><a href="https://e.example/x" rel="nofollow ugc noopener">link</a> <span class="spoiler">secret</span></p>',
    );
  });

  it('drops every XSS vector, in the answer and in what is listed', async () => {
    const { chapter } = await publishedChapter();
    const writers = [await signup(t.app), await signup(t.app), await signup(t.app)];
    const ids: number[] = [];
    for (const [i, [body, forbidden]] of VECTORS.entries()) {
      const written = await comment(writers[Math.floor(i / 5)]!, chapter.id, { body });
      expect(written.body, body).not.toMatch(forbidden);
      expect(written.body, body).toContain('hi');
      ids.push(written.id);
    }
    const listed = (await list(null, chapter.id, '?limit=100')).comments;
    expect(listed).toHaveLength(VECTORS.length);
    for (const c of listed) {
      const [body, forbidden] = VECTORS[ids.indexOf(c.id as number)]!;
      expect(c.body, body).not.toMatch(forbidden);
    }
  });
});

describe('the rate limit', () => {
  it('allows 5 comments a minute (the default), then answers 429 with Retry-After', async () => {
    // The rule: at most 5 comments per user per minute, with a burst of 5.
    expect(t.config.RATE_LIMIT_COMMENTS).toEqual({ max: 5, windowMs: 60_000 });
    const { chapter } = await publishedChapter();
    const writer = await signup(t.app);
    for (let i = 0; i < 5; i++) await comment(writer, chapter.id, { body: `n${i}` });
    const refused = await post(writer, chapter.id, { body: 'one more' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Per user: someone else still may.
    await comment(await signup(t.app), chapter.id, { body: 'me too' });
  });
});
