import { WS_CLOSE } from '@inkwell/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { purgeExpiredSessions } from '../../src/modules/accounts/accounts.service.ts';
import { as, createTestApp, signup, type TestApp, type TestUser } from '../helpers/app.ts';
import { closeAllSockets, closing, connect, listen } from '../helpers/ws.ts';

/*
 * Issue 24 #9: socket URLs carried the 30-day session token into proxy logs. A single-use,
 * short-lived ticket now opens a socket; `?token=` stays for the spec's clients.
 */

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await listen(t.app);
});
afterEach(() => closeAllSockets());
afterAll(() => t.close());

async function ticketFor(user: TestUser, app = t.app): Promise<string> {
  const res = await as(app, user).post('/api/socket-tickets');
  expect(res.statusCode).toBe(201);
  return res.json().ticket;
}

const refusedTicket = {
  code: WS_CLOSE.unauthorized,
  reason: 'The ticket is invalid, used or expired',
};

describe('socket tickets', () => {
  it('are issued to signed-in users only, for 60 s, and kept by no cache', async () => {
    const user = await signup(t.app);
    const res = await as(t.app, user).post('/api/socket-tickets');
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ ticket: expect.any(String), expires_in: 60 });
    expect(res.json().ticket).not.toBe(user.token);
    expect(res.headers['cache-control']).toBe('no-store');
    // With the session cookie too, from the app's own origin.
    const byCookie = await t.app.inject({
      method: 'POST',
      url: '/api/socket-tickets',
      cookies: { fastapi_token: user.token },
    });
    expect(byCookie.statusCode).toBe(201);
    const visitor = await as(t.app, null).post('/api/socket-tickets');
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json().code).toBe('unauthorized');
  });

  it('refuses to issue one to a page of another site riding on the cookie', async () => {
    const user = await signup(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/socket-tickets',
      cookies: { fastapi_token: user.token },
      headers: { origin: 'https://evil.example' },
    });
    expect(res.statusCode).toBe(403);
  });

  it('opens one notification socket for its user, once', async () => {
    const [user, follower] = [await signup(t.app), await signup(t.app)];
    const ticket = await ticketFor(user);
    const socket = await connect(`${base}/ws?ticket=${ticket}`);
    await as(t.app, follower).post('/api/follows', { author_id: user.id });
    expect(await socket.next()).toMatchObject({ type: 'FOLLOW', follower: follower.username });

    const again = await connect(`${base}/ws?ticket=${ticket}`);
    expect(await closing(again)).toEqual(refusedTicket);
    expect(socket.ws.readyState).toBe(socket.ws.OPEN);
  });

  it('opens a chat socket as its user', async () => {
    const [author, member] = [await signup(t.app), await signup(t.app)];
    const socket = await connect(
      `${base}/chat/${author.username}?ticket=${await ticketFor(member)}`,
    );
    expect(await socket.next()).toEqual({
      type: 'system',
      user: 'server',
      message: `<em>${member.username} has connected.</em>`,
    });
    socket.send('<p>hi</p>');
    expect(await socket.next()).toEqual({ user: member.username, message: '<p>hi</p>' });
  });

  it('refuses an expired ticket, an unknown one, and one whose session has ended', async () => {
    const user = await signup(t.app);
    const expired = await ticketFor(user);
    await t.ctx.db
      .updateTable('socket_tickets')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    expect(await closing(await connect(`${base}/ws?ticket=${expired}`))).toEqual(refusedTicket);
    expect(await closing(await connect(`${base}/ws?ticket=made-up`))).toEqual(refusedTicket);

    const beforeLogout = await ticketFor(user);
    expect((await as(t.app, user).delete('/token')).statusCode).toBe(200);
    expect(await closing(await connect(`${base}/ws?ticket=${beforeLogout}`))).toEqual(
      refusedTicket,
    );
  });

  it('lets only one of many sockets racing with one ticket in', async () => {
    const user = await signup(t.app);
    const ticket = await ticketFor(user);
    const sockets = await Promise.all(
      Array.from({ length: 6 }, () => connect(`${base}/ws?ticket=${ticket}`)),
    );
    const outcomes = await Promise.all(
      sockets.map(async (socket) => {
        await socket.drain(300);
        return socket.ws.readyState === socket.ws.OPEN ? 'open' : (await socket.closed).code;
      }),
    );
    expect(outcomes.filter((o) => o === 'open')).toHaveLength(1);
    expect(outcomes.filter((o) => o === WS_CLOSE.unauthorized)).toHaveLength(5);
  });

  it('works on another process than the one that issued it, once across both', async () => {
    const other = await createTestApp({}, { database: t.database });
    try {
      const otherBase = await listen(other.app);
      const user = await signup(t.app);
      const ticket = await ticketFor(user);
      const socket = await connect(`${otherBase}/ws?ticket=${ticket}`);
      expect(await socket.drain(200)).toEqual([]);
      expect(socket.ws.readyState).toBe(socket.ws.OPEN);
      expect(await closing(await connect(`${base}/ws?ticket=${ticket}`))).toEqual(refusedTicket);
    } finally {
      await other.close();
    }
  });

  it('leaves the session token working in socket URLs, as the spec client sends it', async () => {
    const user = await signup(t.app);
    const socket = await connect(`${base}/ws?token=${user.token}`);
    expect(await socket.drain(200)).toEqual([]);
    expect(socket.ws.readyState).toBe(socket.ws.OPEN);
    expect(await closing(await connect(`${base}/ws`))).toEqual({
      code: WS_CLOSE.unauthorized,
      reason: 'A ticket or a token is required',
    });
  });

  it('expired tickets nobody used are purged with expired sessions', async () => {
    const user = await signup(t.app);
    await ticketFor(user);
    await t.ctx.db
      .updateTable('socket_tickets')
      .set({ expires_at: '2001-01-01T00:00:00.000Z' })
      .execute();
    await purgeExpiredSessions(t.ctx);
    const left = await t.ctx.db
      .selectFrom('socket_tickets')
      .select('ticket_hash')
      .where('expires_at', '<=', new Date().toISOString())
      .execute();
    expect(left).toEqual([]);
  });
});
