import { WS_CLOSE } from '@inkwell/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signup, type TestApp } from '../helpers/app.ts';
import { closeAllSockets, closing, connect, listen } from '../helpers/ws.ts';

// Issue 24 #6: nothing capped sockets per user or address, and a connect/close loop on a chat
// room sent a join and a leave note to every member (and replayed the history) each time.
let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp({ WS_MAX_SOCKETS_PER_USER: '3', WS_MAX_SOCKETS_PER_ADDRESS: '5' });
  base = await listen(t.app);
});
afterEach(() => closeAllSockets());
afterAll(() => t.close());

describe('sockets per user and per address', () => {
  it("refuses a user's socket beyond the cap with 4429, notification and chat sockets together", async () => {
    const [user, author] = [await signup(t.app), await signup(t.app)];
    const open = [
      await connect(`${base}/ws?token=${user.token}`),
      await connect(`${base}/ws?token=${user.token}`),
      await connect(`${base}/chat/${author.username}?token=${user.token}`),
    ];
    const refused = await connect(`${base}/ws?token=${user.token}`);
    expect(await closing(refused)).toEqual({
      code: WS_CLOSE.tooMany,
      reason: 'Too many open connections',
    });
    // Closing one frees its place.
    await open[0]!.close();
    const again = await connect(`${base}/ws?token=${user.token}`);
    expect(await again.drain(200)).toEqual([]);
    expect(again.ws.readyState).toBe(again.ws.OPEN);
  });

  it('refuses sockets beyond the cap of one address, whoever opens them', async () => {
    await closeAllSockets();
    const users = await Promise.all(Array.from({ length: 6 }, () => signup(t.app)));
    for (const user of users.slice(0, 5)) await connect(`${base}/ws?token=${user.token}`);
    const refused = await connect(`${base}/ws?token=${users[5]!.token}`);
    expect((await closing(refused)).code).toBe(WS_CLOSE.tooMany);
  });
});

describe('plain requests to a socket URL', () => {
  it('take no place: a GET that is not an upgrade opens nothing, so it holds nothing', async () => {
    await closeAllSockets();
    const user = await signup(t.app);
    // Kept-alive GETs (fetch reuses its connection): each used to take a place held until the
    // connection closed, so three of them filled this user's cap of 3.
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${base.replace('ws:', 'http:')}/ws?token=${user.token}`);
      await res.arrayBuffer();
      expect(res.ok).toBe(false);
    }
    const socket = await connect(`${base}/ws?token=${user.token}`);
    expect(await socket.drain(200)).toEqual([]);
    expect(socket.ws.readyState).toBe(socket.ws.OPEN);
  });
});

describe('refusing beyond the cap before any work', () => {
  it('refuses beyond the address cap before reading the token: even a bad one hears 4429', async () => {
    await closeAllSockets();
    const users = await Promise.all(Array.from({ length: 5 }, () => signup(t.app)));
    for (const user of users) await connect(`${base}/ws?token=${user.token}`);
    const refused = await connect(`${base}/ws?token=not-a-session`);
    expect(await closing(refused)).toEqual({
      code: WS_CLOSE.tooMany,
      reason: 'Too many open connections',
    });
  });

  it('spends no chat join on a socket refused by the user cap', async () => {
    await closeAllSockets();
    const [user, author] = [await signup(t.app), await signup(t.app)];
    const open = [];
    for (let i = 0; i < 3; i++) open.push(await connect(`${base}/ws?token=${user.token}`));
    for (let i = 0; i < 12; i++) {
      const refused = await connect(`${base}/chat/${author.username}?token=${user.token}`);
      expect((await closing(refused)).reason).toBe('Too many open connections');
    }
    await open[0]!.close();
    const joined = await connect(`${base}/chat/${author.username}?token=${user.token}`);
    expect(await joined.next()).toMatchObject({ type: 'system' });
  });
});

describe('chat joins', () => {
  it('cannot flood a room by connecting and closing in a loop', async () => {
    await closeAllSockets();
    const [author, watcher, looper] = [
      await signup(t.app),
      await signup(t.app),
      await signup(t.app),
    ];
    const room = `${base}/chat/${author.username}`;
    const watching = await connect(`${room}?token=${watcher.token}`);
    const codes: number[] = [];
    for (let i = 0; i < 25; i++) {
      const socket = await connect(`${room}?token=${looper.token}`);
      await socket.drain(20);
      codes.push((await socket.close()).code);
    }
    // The first joins get in; the loop is then refused instead of announced to the room.
    expect(codes.slice(0, 10).every((code) => code !== WS_CLOSE.tooMany)).toBe(true);
    expect(codes.slice(12)).toEqual(Array(13).fill(WS_CLOSE.tooMany));
    const notes = await watching.drain(300, (frame) => frame.type === 'system');
    expect(notes.length).toBeLessThanOrEqual(2 * 12);
  });
});

describe('places of open sockets', () => {
  it('are renewed by the heartbeat while the sockets stay open, so they never lapse', async () => {
    // Places lapse three heartbeats after they were last renewed: 300 ms here.
    const fast = await createTestApp({ WS_HEARTBEAT_MS: '100', WS_MAX_SOCKETS_PER_USER: '2' });
    try {
      const fastBase = await listen(fast.app);
      const user = await signup(fast.app);
      const open = [
        await connect(`${fastBase}/ws?token=${user.token}`),
        await connect(`${fastBase}/ws?token=${user.token}`),
      ];
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const refused = await connect(`${fastBase}/ws?token=${user.token}`);
      expect((await closing(refused)).code).toBe(WS_CLOSE.tooMany);
      await open[0]!.close();
      const again = await connect(`${fastBase}/ws?token=${user.token}`);
      expect(await again.drain(200)).toEqual([]);
      expect(again.ws.readyState).toBe(again.ws.OPEN);
    } finally {
      await closeAllSockets();
      await fast.close();
    }
  });
});
