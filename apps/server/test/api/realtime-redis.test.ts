import crypto from 'node:crypto';
import net from 'node:net';
import { WS_CLOSE } from '@inkwell/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, signup, type TestApp, type TestUser } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import {
  addChapter,
  createPublishedBook,
  dropRedisKeys,
  follow,
  updateChapter,
} from '../helpers/live.ts';
import { closeAllSockets, closing, connect, listen } from '../helpers/ws.ts';

/**
 * Two apps in this process, one database, one Redis — reached through a TCP proxy the test can
 * cut, to play a Redis outage. (multiprocess.test.ts does the same with real processes.)
 */
const REDIS = { host: '127.0.0.1', port: 6379 };

let database: TestDatabase;
let proxy: RedisProxy;
const prefix = `inkwell-test-${crypto.randomBytes(6).toString('hex')}`;
const apps: Array<TestApp & { base: string }> = [];

beforeAll(async () => {
  database = await createTestDatabase();
  proxy = await startProxy();
  for (let i = 0; i < 2; i++) {
    const env = { REDIS_URL: `redis://127.0.0.1:${proxy.port}`, REDIS_PREFIX: prefix };
    const t = await createTestApp(env, { database });
    apps.push({ ...t, base: await listen(t.app) });
  }
});
afterEach(() => closeAllSockets());
afterAll(async () => {
  for (const t of apps) await t.close();
  await proxy?.close();
  await dropRedisKeys(prefix);
  await database?.drop();
});

const [A, B] = [0, 1] as const;
const streamOn = (which: number, user: TestUser) =>
  connect(`${apps[which]!.base}/ws?token=${user.token}`);
const chatOn = (which: number, room: string, user: TestUser) =>
  connect(`${apps[which]!.base}/chat/${room}?token=${user.token}`);
const inboxRows = async (user: TestUser) =>
  (await as(apps[A]!.app, user).get('/api/my/notifications?limit=100')).json()
    .notifications as Array<{ chapter_id: number }>;

describe('events through Redis', () => {
  it('notify a follower connected to one app when the author publishes through the other, once', async () => {
    const [author, reader] = [await signup(apps[A]!.app), await signup(apps[A]!.app)];
    const book = await createPublishedBook(as(apps[B]!.app, author), 'Across');
    await follow(as(apps[B]!.app, reader), author.id);
    const [onA, onB] = [await streamOn(A, reader), await streamOn(B, reader)];
    const chapter = await addChapter(as(apps[B]!.app, author), book.id, 'Over the Wire');
    await updateChapter(as(apps[B]!.app, author), book.id, chapter.id, { is_published: true });
    for (const socket of [onA, onB])
      expect(await socket.next()).toMatchObject({ type: 'CHAPTER', chapter_id: chapter.id });
    expect(await onA.drain(200)).toEqual([]);
    expect((await inboxRows(reader)).filter((n) => n.chapter_id === chapter.id)).toHaveLength(1);
  });

  it('carry a chat room across apps, history included', async () => {
    const [author, ann, bob] = [
      await signup(apps[A]!.app),
      await signup(apps[A]!.app),
      await signup(apps[A]!.app),
    ];
    const annSocket = await chatOn(A, author.username, ann);
    await annSocket.next((m) => m.user === 'server');
    annSocket.send('<p>from A</p>');
    await annSocket.next((m) => m.user === ann.username);

    const bobSocket = await chatOn(B, author.username, bob);
    expect(await bobSocket.next()).toEqual({ user: ann.username, message: '<p>from A</p>' });
    expect(await bobSocket.next()).toEqual({
      type: 'system',
      user: 'server',
      message: `<em>${bob.username} has connected.</em>`,
    });
    expect(await annSocket.next()).toEqual({
      type: 'system',
      user: 'server',
      message: `<em>${bob.username} has connected.</em>`,
    });
    bobSocket.send('<p>from B</p>');
    expect(await annSocket.next()).toEqual({ user: bob.username, message: '<p>from B</p>' });
  });
});

describe('a Redis outage', () => {
  it('keeps requests working, refuses chat lines meanwhile, and events resume when Redis returns', async () => {
    const [author, reader, ann, bob] = await Promise.all(
      [1, 2, 3, 4].map(() => signup(apps[A]!.app)),
    );
    const book = await createPublishedBook(as(apps[B]!.app, author!), 'Outage');
    await follow(as(apps[B]!.app, reader!), author!.id);
    const annSocket = await chatOn(A, author!.username, ann!);
    const bobSocket = await chatOn(B, author!.username, bob!);
    await bobSocket.next((m) => m.message === `<em>${bob!.username} has connected.</em>`);

    await proxy.cut();
    const chapter = await addChapter(as(apps[B]!.app, author!), book.id, 'In the Dark');
    const started = Date.now();
    await updateChapter(as(apps[B]!.app, author!), book.id, chapter.id, { is_published: true });
    expect(Date.now() - started).toBeLessThan(2_000);
    // The inbox is written before the event goes to Redis, so the offline reader still has it.
    expect((await inboxRows(reader!)).map((n) => n.chapter_id)).toContain(chapter.id);
    annSocket.send('<p>anyone?</p>');
    expect(await annSocket.next((m) => m.type === 'error')).toEqual({
      type: 'error',
      detail: 'The chat is briefly unavailable; your message was not sent',
    });

    await proxy.restore();
    // ioredis reconnects and subscribes again by itself; keep talking until the line crosses.
    const stream = await streamOn(A, reader!);
    await expect
      .poll(
        async () => {
          annSocket.send('<p>back?</p>');
          return bobSocket
            .drain(150, (m) => m.message === '<p>back?</p>')
            .then((got) => got.length > 0);
        },
        { timeout: 10_000, interval: 50 },
      )
      .toBe(true);
    const next = await addChapter(as(apps[B]!.app, author!), book.id, 'Lights On');
    await updateChapter(as(apps[B]!.app, author!), book.id, next.id, { is_published: true });
    expect(await stream.next()).toMatchObject({ type: 'CHAPTER', chapter_id: next.id });
  });
});

describe('blocks and mutes made while Redis is down', () => {
  it('reach the open chat sockets once it is back: the blocked are closed out, the muted hidden', async () => {
    const [author, pest, ann, bob] = await Promise.all(
      [1, 2, 3, 4].map(() => signup(apps[A]!.app)),
    );
    const joined = async (which: number, user: TestUser) => {
      const socket = await chatOn(which, author!.username, user);
      await socket.next((m) => m.message === `<em>${user.username} has connected.</em>`);
      return socket;
    };
    const [pestSocket, authorSocket, bobSocket] = [
      await joined(A, pest!),
      await joined(A, author!),
      await joined(A, bob!),
    ];
    const annSocket = await joined(B, ann!);

    await proxy.cut();
    // Both answer at once: the lists are in the database; their events went nowhere.
    const blocked = await as(apps[B]!.app, author).post('/api/my/blocks', {
      username: pest!.username,
    });
    expect(blocked.statusCode).toBeLessThan(300);
    const muted = await as(apps[B]!.app, ann).post('/api/my/mutes', { username: bob!.username });
    expect(muted.statusCode).toBeLessThan(300);
    await proxy.restore();

    expect(await closing(pestSocket, 15_000)).toEqual({
      code: WS_CLOSE.forbidden,
      reason: 'The author has blocked you',
    });
    // Bob's line, then the author's: once app B has read Ann's mutes again, she gets only the
    // author's. (Lines cross Redis again only once it is back: ask until they do.)
    let round = 0;
    await expect
      .poll(
        async () => {
          const [hidden, marker] = [`<p>bob ${++round}</p>`, `<p>author ${round}</p>`];
          bobSocket.send(hidden);
          await bobSocket.drain(50);
          authorSocket.send(marker);
          const lines = await annSocket.drain(300, (m) => m.type !== 'system');
          return (
            lines.some((m) => m.message === marker) && !lines.some((m) => m.message === hidden)
          );
        },
        { timeout: 15_000, interval: 100 },
      )
      .toBe(true);
  }, 45_000);
});

interface RedisProxy {
  port: number;
  /** Drops every connection and refuses new ones. */
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

async function startProxy(): Promise<RedisProxy> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(REDIS);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listenOn = (port: number) =>
    new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  await listenOn(0);
  const port = (server.address() as net.AddressInfo).port;
  const stop = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return { port, cut: stop, restore: () => listenOn(port), close: stop };
}
