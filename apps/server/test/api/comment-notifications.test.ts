import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
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
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { dropRedisKeys } from '../helpers/live.ts';
import { closeAllSockets, connect, listen, type Frame } from '../helpers/ws.ts';

/**
 * Issue 19, "Notifications": COMMENT and REPLY, live and in the inbox. Two apps on one database
 * and one Redis play two processes: every comment is written through one and every socket is
 * opened on the other, so each live message crossed Redis.
 */
let database: TestDatabase;
const prefix = `inkwell-comments-${crypto.randomBytes(6).toString('hex')}`;
const apps: Array<TestApp & { base: string }> = [];
const [A, B] = [0, 1] as const;

beforeAll(async () => {
  database = await createTestDatabase();
  for (let i = 0; i < 2; i++) {
    const env = { REDIS_URL: 'redis://127.0.0.1:6379', REDIS_PREFIX: prefix };
    const t = await createTestApp(env, { database });
    apps.push({ ...t, base: await listen(t.app) });
  }
});
afterEach(() => closeAllSockets());
afterAll(async () => {
  for (const t of apps) await t.close();
  await dropRedisKeys(prefix);
  await database?.drop();
});

const on = (i: number, user?: TestUser | null) => as(apps[i]!.app, user);
const streamOn = (i: number, user: TestUser) => connect(`${apps[i]!.base}/ws?token=${user.token}`);
const isComment = (m: Frame) => m.type === 'COMMENT' || m.type === 'REPLY';

interface Inbox {
  notifications: Array<{ type: string; comment_id: number | null; [field: string]: unknown }>;
}
const inboxOf = async (user: TestUser) =>
  ((await on(A, user).get('/api/my/notifications?limit=100')).json() as Inbox).notifications.filter(
    (n) => n.type === 'COMMENT' || n.type === 'REPLY',
  );

async function publishedChapter(author?: TestUser) {
  const writer = author ?? (await signup(apps[A]!.app));
  const book = await createBook(apps[A]!.app, writer, `Told ${crypto.randomUUID()}`, {
    published: true,
  });
  const chapter = await createChapter(
    apps[A]!.app,
    writer,
    book.id,
    { title: 'The Reveal' },
    { published: true },
  );
  return { author: writer, book, chapter };
}

async function write(
  i: number,
  user: TestUser,
  chapterId: number,
  body: string,
  parentId?: number,
): Promise<number> {
  const res = await on(i, user).post(`/api/chapters/${chapterId}/comments`, {
    body,
    ...(parentId !== undefined && { parent_id: parentId }),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

const onList = (kind: 'block' | 'mute', owner: TestUser, other: TestUser) =>
  addToList(
    apps[A]!.ctx,
    { id: owner.id, username: owner.username, sessionId: 0, signedInAt: '' },
    kind,
    other.username,
  );

describe('COMMENT', () => {
  it('reaches the author live on the other process and in the inbox, without the spoiler', async () => {
    const { author, book, chapter } = await publishedChapter();
    const reader = await signup(apps[A]!.app);
    const socket = await streamOn(B, author);
    const id = await write(
      A,
      reader,
      chapter.id,
      '<p>What a <b>twist</b>: <span class="spoiler">the butler</span> did it</p>',
    );
    const message = `${reader.username} commented on "The Reveal": What a twist: [spoiler] did it`;
    expect(await socket.next(isComment)).toEqual({
      type: 'COMMENT',
      message,
      book_id: book.id,
      chapter_id: chapter.id,
      comment_id: id,
    });
    expect(await inboxOf(author)).toEqual([
      {
        id: expect.any(Number),
        type: 'COMMENT',
        message,
        book_id: book.id,
        chapter_id: chapter.id,
        comment_id: id,
        announcement_id: null,
        follower: null,
        is_read: false,
        created_at: expect.any(String),
      },
    ]);
    // The commenter hears nothing of their own comment.
    expect(await inboxOf(reader)).toEqual([]);
  });

  it('toasts at most once a minute per chapter; the inbox counts every comment', async () => {
    const { author, book, chapter } = await publishedChapter();
    const other = await createChapter(
      apps[A]!.app,
      author,
      book.id,
      { title: 'Next' },
      {
        published: true,
      },
    );
    const socket = await streamOn(B, author);
    const readers = [
      await signup(apps[A]!.app),
      await signup(apps[A]!.app),
      await signup(apps[A]!.app),
    ];
    const ids: number[] = [];
    for (const [i, reader] of readers.entries())
      ids.push(await write(i % 2, reader, chapter.id, `comment ${i}`));
    expect(await socket.next(isComment)).toMatchObject({ type: 'COMMENT', comment_id: ids[0] });
    // Another chapter has its own minute.
    const elsewhere = await write(B, readers[0]!, other.id, 'on the next one');
    expect(await socket.next(isComment)).toMatchObject({ comment_id: elsewhere });
    expect(await socket.drain(300, isComment)).toEqual([]);
    expect((await inboxOf(author)).map((n) => n.comment_id).sort()).toEqual(
      [...ids, elsewhere].sort(),
    );
  });

  it('shortens a long comment in the message', async () => {
    const { author, chapter } = await publishedChapter();
    const reader = await signup(apps[A]!.app);
    await write(A, reader, chapter.id, 'x'.repeat(500));
    const [notice] = await inboxOf(author);
    const excerpt = String(notice!.message).split(': ')[1]!;
    expect(excerpt.length).toBeLessThanOrEqual(100);
    expect(excerpt.endsWith('…')).toBe(true);
  });

  it('is not sent for the author’s own comment, nor by a user the author muted or blocked', async () => {
    const { author, chapter } = await publishedChapter();
    const [muted, blocked] = [await signup(apps[A]!.app), await signup(apps[A]!.app)];
    const socket = await streamOn(B, author);
    await write(A, author, chapter.id, 'my own note');
    await onList('mute', author, muted);
    await write(A, muted, chapter.id, 'hello?');
    await onList('block', author, blocked);
    expect(
      (await on(A, blocked).post(`/api/chapters/${chapter.id}/comments`, { body: 'hi' }))
        .statusCode,
    ).toBe(403);
    expect(await socket.drain(300, isComment)).toEqual([]);
    expect(await inboxOf(author)).toEqual([]);
  });
});

describe('REPLY', () => {
  it('goes to the thread’s writer, and to the author once they are in the thread', async () => {
    const { author, book, chapter } = await publishedChapter();
    const [ann, bob] = [await signup(apps[A]!.app), await signup(apps[A]!.app)];
    const [annSocket, authorSocket] = [await streamOn(B, ann), await streamOn(B, author)];
    const thread = await write(A, ann, chapter.id, 'Why did she leave?');
    await authorSocket.next(isComment); // the COMMENT of the new thread

    // Bob replies: Ann hears of it; the author, not in the thread, does not.
    const bobs = await write(A, bob, chapter.id, 'She had to', thread);
    expect(await annSocket.next(isComment)).toEqual({
      type: 'REPLY',
      message: `${bob.username} replied on "The Reveal": She had to`,
      book_id: book.id,
      chapter_id: chapter.id,
      comment_id: bobs,
    });
    expect(await authorSocket.drain(300, isComment)).toEqual([]);

    // The author replies (to Bob's reply: the same thread): Ann hears; the author of nothing.
    const authors = await write(A, author, chapter.id, 'Wait for chapter 2', bobs);
    expect(await annSocket.next(isComment)).toMatchObject({ type: 'REPLY', comment_id: authors });
    expect(await authorSocket.drain(300, isComment)).toEqual([]);

    // Now the author is in the thread: Bob's next reply reaches Ann and the author, not Bob.
    const bobSocket = await streamOn(B, bob);
    const again = await write(A, bob, chapter.id, 'Can’t wait', thread);
    expect(await annSocket.next(isComment)).toMatchObject({ type: 'REPLY', comment_id: again });
    expect(await authorSocket.next(isComment)).toMatchObject({ type: 'REPLY', comment_id: again });
    expect(await bobSocket.drain(300, isComment)).toEqual([]);

    expect((await inboxOf(ann)).map((n) => [n.type, n.comment_id])).toEqual([
      ['REPLY', again],
      ['REPLY', authors],
      ['REPLY', bobs],
    ]);
    expect((await inboxOf(author)).map((n) => [n.type, n.comment_id])).toEqual([
      ['REPLY', again],
      ['COMMENT', thread],
    ]);
    expect(await inboxOf(bob)).toEqual([]);
  });

  it('is not sent to a reader once the chapter or its book is the author’s alone: a draft’s title stays private', async () => {
    const { author, book, chapter } = await publishedChapter();
    const ann = await signup(apps[A]!.app);
    const annSocket = await streamOn(B, ann);
    const thread = await write(A, ann, chapter.id, 'More please');
    const edit = (path: string, body: object) =>
      on(A, author)
        .put(path, body)
        .then((res) => expect(res.statusCode, res.body).toBe(200));
    const chapterPath = `/api/books/${book.id}/chapters/${chapter.id}`;

    await edit(chapterPath, { is_published: false, title: 'Secret draft title' });
    await write(A, author, chapter.id, 'Rewriting this one', thread);
    await edit(chapterPath, { is_published: true });
    await edit(`/api/books/${book.id}`, { is_published: false });
    await write(A, author, chapter.id, 'Taking the book down a while', thread);
    expect(await annSocket.drain(300, isComment)).toEqual([]);
    expect(await inboxOf(ann)).toEqual([]);

    // Public again: the next reply reaches her, so the silence above was the rule's.
    await edit(`/api/books/${book.id}`, { is_published: true });
    const back = await write(A, author, chapter.id, 'Back', thread);
    expect(await annSocket.next(isComment)).toMatchObject({
      type: 'REPLY',
      message: `${author.username} replied on "Secret draft title": Back`,
      comment_id: back,
    });
  });

  it('is not sent to a thread writer who muted or blocked the replier, nor for replies in one’s own thread', async () => {
    const { chapter } = await publishedChapter();
    const [ann, pest, troll] = [
      await signup(apps[A]!.app),
      await signup(apps[A]!.app),
      await signup(apps[A]!.app),
    ];
    const annSocket = await streamOn(B, ann);
    const thread = await write(A, ann, chapter.id, 'A thought');
    await write(A, ann, chapter.id, 'And another', thread);
    await onList('mute', ann, pest);
    await write(A, pest, chapter.id, 'Nobody asked', thread);
    // Ann's block (she is not the book's author) does not stop the reply, only her notice.
    await onList('block', ann, troll);
    await write(A, troll, chapter.id, 'Still here', thread);
    expect(await annSocket.drain(300, isComment)).toEqual([]);
    expect(await inboxOf(ann)).toEqual([]);
  });

  it('is taken back when its comment is deleted: the notice quoted the deleted text', async () => {
    const { author, chapter } = await publishedChapter();
    const [ann, troll] = [await signup(apps[A]!.app), await signup(apps[A]!.app)];
    const thread = await write(A, ann, chapter.id, 'A fair question');
    const abuse = await write(A, troll, chapter.id, 'Something abusive', thread);
    const alone = await write(A, troll, chapter.id, 'More of it');
    expect((await inboxOf(ann)).map((n) => n.comment_id)).toEqual([abuse]);
    expect((await inboxOf(author)).map((n) => n.comment_id)).toContain(alone);
    // The author deletes the reply; the troll deletes their own comment.
    expect((await on(A, author).delete(`/api/comments/${abuse}`)).statusCode).toBeLessThan(300);
    expect((await on(A, troll).delete(`/api/comments/${alone}`)).statusCode).toBeLessThan(300);
    expect(await inboxOf(ann)).toEqual([]);
    expect((await inboxOf(author)).map((n) => n.comment_id)).toEqual([thread]);
  });

  it('is not sent to a thread writer the replier blocked: the blocked hear nothing of the blocker', async () => {
    const { author, chapter } = await publishedChapter();
    const reader = await signup(apps[A]!.app);
    const thread = await write(A, reader, chapter.id, 'Before the block');
    await onList('block', author, reader);
    // The author may still answer in the thread the block hid.
    await write(A, author, chapter.id, 'A last word', thread);
    expect(await inboxOf(reader)).toEqual([]);
  });
});
