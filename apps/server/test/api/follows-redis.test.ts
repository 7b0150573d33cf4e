import crypto from 'node:crypto';
import { WS_CLOSE } from '@inkwell/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, signup, type TestApp, type TestUser } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { addChapter, createPublishedBook, dropRedisKeys, updateChapter } from '../helpers/live.ts';
import { closeAllSockets, closing, connect, listen, type TestSocket } from '../helpers/ws.ts';

/**
 * Issue 19 across processes: two apps on one database and one Redis. Book followers hear of a
 * chapter once wherever they are connected; a mute or a block made on one app reaches the chat
 * sockets the other holds.
 */
let database: TestDatabase;
const prefix = `inkwell-test-${crypto.randomBytes(6).toString('hex')}`;
const apps: Array<TestApp & { base: string }> = [];

beforeAll(async () => {
  database = await createTestDatabase();
  for (let i = 0; i < 2; i++) {
    const t = await createTestApp(
      { REDIS_URL: 'redis://127.0.0.1:6379', REDIS_PREFIX: prefix },
      { database },
    );
    apps.push({ ...t, base: await listen(t.app) });
  }
});
afterEach(() => closeAllSockets());
afterAll(async () => {
  for (const t of apps) await t.close();
  await dropRedisKeys(prefix);
  await database?.drop();
});

const [A, B] = [0, 1] as const;
const on = (which: number, user: TestUser) => as(apps[which]!.app, user);
async function enter(which: number, room: string, user: TestUser): Promise<TestSocket> {
  const socket = await connect(`${apps[which]!.base}/chat/${room}?token=${user.token}`);
  await socket.next((m) => m.user === 'server' && String(m.message).includes(user.username));
  return socket;
}

describe('follows of books through Redis', () => {
  it('tell a follower of book and author, connected to both apps, of a chapter once per socket', async () => {
    const [author, reader] = [await signup(apps[A]!.app), await signup(apps[A]!.app)];
    const book = await createPublishedBook(on(B, author), 'Across the wire');
    expect((await on(A, reader).post(`/api/books/${book.id}/follow`)).statusCode).toBe(200);
    expect((await on(B, reader).post('/api/follows', { author_id: author.id })).statusCode).toBe(
      201,
    );
    const sockets = [
      await connect(`${apps[A]!.base}/ws?token=${reader.token}`),
      await connect(`${apps[B]!.base}/ws?token=${reader.token}`),
    ];
    const chapter = await addChapter(on(B, author), book.id, 'Once');
    await updateChapter(on(B, author), book.id, chapter.id, { is_published: true });
    const isIt = (m: { type?: string; chapter_id?: unknown }) =>
      m.type === 'CHAPTER' && m.chapter_id === chapter.id;
    for (const socket of sockets) {
      await socket.next(isIt);
      expect(await socket.drain(200, isIt)).toEqual([]);
    }
  });
});

describe('blocks and mutes through Redis', () => {
  it('a mute made on one app hides lines from the muter’s socket on the other at once', async () => {
    const [author, muter, loud] = [
      await signup(apps[A]!.app),
      await signup(apps[A]!.app),
      await signup(apps[A]!.app),
    ];
    const muterSocket = await enter(B, author.username, muter);
    const loudSocket = await enter(A, author.username, loud);
    await on(A, muter).post('/api/my/mutes', { username: loud.username });
    loudSocket.send('<p>hidden</p>');
    await loudSocket.next((m) => m.message === '<p>hidden</p>');
    await on(A, muter).delete(`/api/my/mutes/${loud.username}`);
    loudSocket.send('<p>shown</p>');
    expect(await muterSocket.next((m) => m.user === loud.username)).toEqual({
      user: loud.username,
      message: '<p>shown</p>',
    });
  });

  it("a block made on one app closes the blocked user's socket in the room on the other", async () => {
    const [author, pest] = [await signup(apps[A]!.app), await signup(apps[A]!.app)];
    const socket = await enter(B, author.username, pest);
    await on(A, author).post('/api/my/blocks', { username: pest.username });
    expect(await closing(socket)).toEqual({
      code: WS_CLOSE.forbidden,
      reason: 'The author has blocked you',
    });
  });
});
