import { WS_CLOSE } from '@inkwell/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, signup, type TestApp, type TestUser } from '../helpers/app.ts';
import { addChapter, createPublishedBook, follow, updateChapter } from '../helpers/live.ts';
import { closeAllSockets, connect, listen } from '../helpers/ws.ts';

// Heartbeats every 200 ms so the dead-connection test takes well under a second.
let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp({ WS_HEARTBEAT_MS: '200' });
  base = await listen(t.app);
});
afterEach(() => closeAllSockets());
afterAll(() => t.close());

const stream = (user: { token: string }) =>
  connect(`${base}/ws?token=${encodeURIComponent(user.token)}`);
const isChapter = (m: { type?: string }) => m.type === 'CHAPTER';
const inboxOf = async (user: TestUser) =>
  (await as(t.app, user).get('/api/my/notifications?limit=100')).json();

describe('refusing a notification stream', () => {
  it.each([
    ['no token', ''],
    ['an empty token', '?token='],
    ['an unknown token', '?token=not-a-real-token'],
  ])('closes a socket with %s at once with 4401 and a reason', async (_what, query) => {
    const socket = await connect(`${base}/ws${query}`);
    const closed = await socket.closed;
    expect(closed.code).toBe(WS_CLOSE.unauthorized);
    expect(closed.reason).toMatch(/token/i);
  });

  it('refuses a token after logout', async () => {
    const user = await signup(t.app);
    expect((await as(t.app, user).delete('/token')).statusCode).toBe(200);
    const closed = await (await stream(user)).closed;
    expect(closed).toEqual({
      code: WS_CLOSE.unauthorized,
      reason: expect.stringMatching(/invalid or expired/),
    });
  });

  it('refuses an expired token', async () => {
    const user = await signup(t.app);
    await t.ctx.db
      .updateTable('sessions')
      .set({ expires_at: '2000-01-01T00:00:00.000Z' })
      .where('user_id', '=', user.id)
      .execute();
    expect((await (await stream(user)).closed).code).toBe(WS_CLOSE.unauthorized);
  });

  it('does not take the session cookie instead of the token', async () => {
    const user = await signup(t.app);
    const socket = await connect(`${base}/ws`, {
      headers: { cookie: `fastapi_token=${user.token}` },
    });
    expect((await socket.closed).code).toBe(WS_CLOSE.unauthorized);
  });
});

describe('CHAPTER notifications', () => {
  let author: TestUser;
  let fan: TestUser;
  let otherFan: TestUser;
  let stranger: TestUser;
  let book: { id: number };
  beforeAll(async () => {
    [author, fan, otherFan, stranger] = await Promise.all([
      signup(t.app),
      signup(t.app),
      signup(t.app),
      signup(t.app),
    ]);
    book = await createPublishedBook(as(t.app, author), 'Tidewater');
    await follow(as(t.app, fan), author.id);
    await follow(as(t.app, otherFan), author.id);
  });

  it('reach every connection of every follower, and no one else', async () => {
    const [fanTab1, fanTab2, otherFanTab, strangerTab, authorTab] = await Promise.all([
      stream(fan),
      stream(fan),
      stream(otherFan),
      stream(stranger),
      stream(author),
    ]);
    const chapter = await addChapter(as(t.app, author), book.id, 'The Flood');
    await updateChapter(as(t.app, author), book.id, chapter.id, { is_published: true });

    const expected = {
      type: 'CHAPTER',
      message: `New chapter of "Tidewater" by ${author.username}: The Flood`,
      book_id: book.id,
      chapter_id: chapter.id,
    };
    for (const tab of [fanTab1, fanTab2, otherFanTab]) expect(await tab.next()).toEqual(expected);
    expect(await strangerTab.drain(200)).toEqual([]);
    expect(await authorTab.drain(0)).toEqual([]);
    expect(await fanTab1.drain(0)).toEqual([]);
  });

  it('are not sent again for edits, autosaves or re-publishing of a published chapter', async () => {
    const fanTab = await stream(fan);
    const chapter = await addChapter(as(t.app, author), book.id, 'Low Tide');
    await updateChapter(as(t.app, author), book.id, chapter.id, { is_published: true });
    await fanTab.next(isChapter);
    const stored = (await inboxOf(fan)).notifications.length;

    await updateChapter(as(t.app, author), book.id, chapter.id, {
      content: '<p>Autosaved text</p>',
    });
    await updateChapter(as(t.app, author), book.id, chapter.id, { title: 'Low Tide, revised' });
    await updateChapter(as(t.app, author), book.id, chapter.id, { is_published: false });
    await updateChapter(as(t.app, author), book.id, chapter.id, { is_published: true });

    expect(await fanTab.drain(300)).toEqual([]);
    expect((await inboxOf(fan)).notifications).toHaveLength(stored);
  });

  it('are not sent for a chapter of a draft book', async () => {
    const fanTab = await stream(fan);
    const draft = (await as(t.app, author).post('/api/books', { title: 'Secret Drafts' })).json();
    const chapter = await addChapter(as(t.app, author), draft.id, 'Hidden');
    await updateChapter(as(t.app, author), draft.id, chapter.id, { is_published: true });
    expect(await fanTab.drain(300)).toEqual([]);
  });

  it('are stored in the inbox of followers who were offline', async () => {
    const chapter = await addChapter(as(t.app, author), book.id, 'While You Slept');
    await updateChapter(as(t.app, author), book.id, chapter.id, { is_published: true });
    await expect
      .poll(async () =>
        (await inboxOf(otherFan)).notifications.map((n: { chapter_id: number }) => n.chapter_id),
      )
      .toContain(chapter.id);
    expect((await inboxOf(stranger)).notifications).toEqual([]);
  });
});

describe('FOLLOW notifications', () => {
  it('tell the followed author who follows them, on every connection', async () => {
    const [author, reader] = [await signup(t.app), await signup(t.app)];
    const [authorTab1, authorTab2, readerTab] = await Promise.all([
      stream(author),
      stream(author),
      stream(reader),
    ]);
    await follow(as(t.app, reader), author.id);
    const expected = {
      type: 'FOLLOW',
      message: `${reader.username} is now following you`,
      follower: reader.username,
    };
    expect(await authorTab1.next()).toEqual(expected);
    expect(await authorTab2.next()).toEqual(expected);
    expect(await readerTab.drain(200)).toEqual([]);
  });
});

describe('connection upkeep', () => {
  it('keeps answering clients alive and drops a client that stops answering pings', async () => {
    const user = await signup(t.app);
    const alive = await stream(user);
    const deaf = await connect(`${base}/ws?token=${user.token}`, { autoPong: false });
    const closed = await deaf.closed;
    // Terminated, not closed politely: the client sees an abnormal closure.
    expect(closed.code).toBe(1006);
    expect(alive.ws.readyState).toBe(alive.ws.OPEN);
  });

  it('stops delivering to a closed connection without disturbing the others', async () => {
    const [author, reader] = [await signup(t.app), await signup(t.app)];
    const [first, second] = [await stream(author), await stream(author)];
    await first.close();
    await follow(as(t.app, reader), author.id);
    expect((await second.next()).type).toBe('FOLLOW');
  });
});

describe('a server under BASE_PATH', () => {
  let other: TestApp;
  let otherBase: string;
  let user: { username: string; token: string };
  beforeAll(async () => {
    other = await createTestApp({ BASE_PATH: '/inkwell' });
    otherBase = `${await listen(other.app)}/inkwell`;
    const res = await other.app.inject({
      method: 'POST',
      url: '/inkwell/api/authors',
      payload: { username: 'based_user', password: 'correct horse battery' },
    });
    user = { username: 'based_user', token: res.json().access_token };
  });
  afterAll(() => other.close());

  it('serves both endpoints under the base path', async () => {
    const sockets = [
      await connect(`${otherBase}/ws?token=${user.token}`),
      await connect(`${otherBase}/chat/${user.username}?token=${user.token}`),
    ];
    expect(await sockets[1]!.next()).toEqual({
      type: 'system',
      user: 'server',
      message: '<em>based_user has connected.</em>',
    });
    for (const socket of sockets) expect(socket.ws.readyState).toBe(socket.ws.OPEN);
  });

  it('closes every socket with 1001 "going away" when the server shuts down', async () => {
    const sockets = await Promise.all([
      connect(`${otherBase}/ws?token=${user.token}`),
      connect(`${otherBase}/chat/${user.username}?token=${user.token}`),
    ]);
    await other.app.close();
    for (const socket of sockets)
      expect(await socket.closed).toEqual({
        code: WS_CLOSE.goingAway,
        reason: 'Server shutting down',
      });
  });
});
