import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isPostgres } from '../../src/db/kysely.ts';
import { PASSWORD_CHANGE_DETAIL } from '../../src/modules/accounts/accounts.service.ts';
import { hasFollowNotificationSince } from '../../src/modules/notifications/notifications.repository.ts';
import { as, createTestApp, signup, type TestApp, type TestUser } from '../helpers/app.ts';
import { statementLog } from '../helpers/plans.ts';
import { closeAllSockets, connect, listen } from '../helpers/ws.ts';

/*
 * Issue 24 (hardening): guessing passwords, password changes by a session thief, login CSRF,
 * caching of private answers, reserved usernames, FOLLOW spam, expired sessions, slow clients.
 * The app runs with the default login limits.
 */

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await listen(t.app);
});
afterEach(() => closeAllSockets());
afterAll(() => t.close());

let ipCounter = 0;
/** A fresh client address, so tests do not share the per-IP count. */
const newIp = () => `10.24.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

const login = (username: string, password: string, ip = newIp()) =>
  t.app.inject({
    method: 'POST',
    url: '/token',
    remoteAddress: ip,
    payload: { username, password },
  });

const statuses = (responses: Array<{ statusCode: number }>) => {
  const counts: Record<number, number> = {};
  for (const res of responses) counts[res.statusCode] = (counts[res.statusCode] ?? 0) + 1;
  return counts;
};

describe('guessing passwords (#1)', () => {
  it('lets at most the allowed number of 20 parallel wrong passwords for one username through; the rest hear 429 with Retry-After', async () => {
    const user = await signup(t.app);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => login(user.username, 'wrong-password')),
    );
    const counts = statuses(responses);
    expect(counts[401] ?? 0).toBeLessThanOrEqual(t.config.LOGIN_MAX_FAILURES);
    expect(counts[429]).toBe(20 - (counts[401] ?? 0));
    for (const res of responses.filter((r) => r.statusCode === 429)) {
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.json().code).toBe('rate_limited');
    }
    // The right password waits too, until the back-off has passed.
    expect((await login(user.username, user.password)).statusCode).toBe(429);
  });

  it('limits 20 parallel wrong passwords from one address across usernames too', async () => {
    const ip = newIp();
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => login(`ghost_${i}_${ip}`, 'nope-nope-nope', ip)),
    );
    const counts = statuses(responses);
    expect(counts[401] ?? 0).toBeLessThanOrEqual(t.config.LOGIN_MAX_FAILURES);
    expect(counts[429]).toBe(20 - (counts[401] ?? 0));
  });

  it('lets many parallel right passwords from one address through (an office behind one NAT)', async () => {
    const ip = newIp();
    const users = await Promise.all(Array.from({ length: 4 }, () => signup(t.app)));
    const responses = await Promise.all(
      Array.from({ length: 16 }, (_, i) => {
        const user = users[i % users.length]!;
        return login(user.username, user.password, ip);
      }),
    );
    expect(statuses(responses)).toEqual({ 200: 16 });
  });

  it('does not count right passwords, nor keep failures after one', async () => {
    const user = await signup(t.app);
    const ip = newIp();
    for (let i = 0; i < t.config.LOGIN_MAX_FAILURES * 2; i++) {
      expect((await login(user.username, user.password, ip)).statusCode).toBe(200);
    }
    for (let i = 0; i < t.config.LOGIN_MAX_FAILURES - 1; i++) {
      expect((await login(user.username, 'wrong-password')).statusCode).toBe(401);
    }
    expect((await login(user.username, user.password)).statusCode).toBe(200);
    // The username starts afresh after the right password.
    for (let i = 0; i < t.config.LOGIN_MAX_FAILURES; i++) {
      expect((await login(user.username, 'wrong-password')).statusCode).toBe(401);
    }
    expect((await login(user.username, 'wrong-password')).statusCode).toBe(429);
  });

  it('defaults to a back-off over a long window', () => {
    expect(t.config.LOGIN_MAX_FAILURES).toBe(5);
    expect(t.config.LOGIN_WINDOW_SECONDS).toBeGreaterThanOrEqual(3600);
  });
});

describe('changing the password (#4)', () => {
  /** Makes the user's sessions look signed in `minutes` ago. */
  const age = (user: TestUser, minutes: number) =>
    t.ctx.db
      .updateTable('sessions')
      .set({ created_at: new Date(Date.now() - minutes * 60_000).toISOString() })
      .where('user_id', '=', user.id)
      .execute();

  const change = (user: TestUser, body: Record<string, unknown>) =>
    as(t.app, user).put(`/api/authors/${user.id}`, body);

  it('needs no current password within 10 minutes of signing in (the spec client)', async () => {
    const user = await signup(t.app);
    await age(user, 9);
    const res = await change(user, { password: 'a brand new one' });
    expect(res.statusCode).toBe(200);
    expect((await login(user.username, 'a brand new one')).statusCode).toBe(200);
  });

  it('answers 403 "sign in again" without the current password later, and changes nothing', async () => {
    const user = await signup(t.app);
    await age(user, 11);
    const res = await change(user, { password: 'taken over now' });
    expect(res.statusCode).toBe(403);
    // The current password is what it lacks: the body names that field beside its usual two.
    expect(res.json()).toEqual({
      detail: PASSWORD_CHANGE_DETAIL.signInAgain,
      code: 'forbidden',
      field: 'current_password',
    });
    expect(res.json().detail).toMatch(/sign in again/i);
    expect((await login(user.username, 'taken over now')).statusCode).toBe(401);
    expect((await login(user.username, user.password)).statusCode).toBe(200);
  });

  it('accepts the right current password at any time', async () => {
    const user = await signup(t.app);
    await age(user, 60 * 24);
    const res = await change(user, {
      password: 'changed knowingly',
      current_password: user.password,
    });
    expect(res.statusCode).toBe(200);
    expect((await login(user.username, 'changed knowingly')).statusCode).toBe(200);
  });

  it('refuses a wrong current password with 403, a clear message and its field, even in a fresh session', async () => {
    const user = await signup(t.app);
    const res = await change(user, { password: 'not so fast', current_password: 'a wrong guess' });
    expect(res.statusCode).toBe(403);
    // The message names a password twice; `field` says which one is wrong (for a form to mark).
    expect(res.json()).toEqual({
      detail: PASSWORD_CHANGE_DETAIL.wrongCurrent,
      code: 'forbidden',
      field: 'current_password',
    });
    expect((await login(user.username, user.password)).statusCode).toBe(200);
  });

  it('limits guesses of the current password like logins', async () => {
    const user = await signup(t.app);
    await age(user, 30);
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        change(user, { password: 'guessing game', current_password: `guess number ${i}` }),
      ),
    );
    const counts = statuses(responses);
    expect(counts[403] ?? 0).toBeLessThanOrEqual(t.config.LOGIN_MAX_FAILURES);
    expect(counts[429]).toBe(12 - (counts[403] ?? 0));
  });

  it('lets other profile changes through in an old session', async () => {
    const user = await signup(t.app);
    await age(user, 60);
    const res = await change(user, { first_name: 'Still', password: '' });
    expect(res.statusCode).toBe(200);
    expect(res.json().first_name).toBe('Still');
  });
});

describe('login CSRF (#8)', () => {
  const post = (url: string, payload: object, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url, remoteAddress: newIp(), payload, headers });

  it('refuses login and signup from another site', async () => {
    const user = await signup(t.app);
    const crossSite: Array<Record<string, string>> = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of crossSite) {
      const token = await post(
        '/token',
        { username: user.username, password: user.password },
        headers,
      );
      expect(token.statusCode).toBe(403);
      expect(token.headers['set-cookie']).toBeUndefined();
      const created = await post(
        '/api/authors',
        { username: `csrf_${ipCounter}`, password: 'password1' },
        headers,
      );
      expect(created.statusCode).toBe(403);
      expect(created.headers['set-cookie']).toBeUndefined();
    }
  });

  it('lets them through from the same origin, and from clients that send no Origin', async () => {
    const user = await signup(t.app);
    const same = { origin: 'http://localhost:3000', host: 'localhost:3000' };
    expect(
      (await post('/token', { username: user.username, password: user.password }, same)).statusCode,
    ).toBe(200);
    expect(
      (await post('/token', { username: user.username, password: user.password }, {})).statusCode,
    ).toBe(200);
    expect(
      (await post('/api/authors', { username: `same_${ipCounter}`, password: 'password1' }, same))
        .statusCode,
    ).toBe(201);
  });
});

describe('caching of private answers (#10)', () => {
  it('marks the token answers and private reads no-store', async () => {
    const user = await signup(t.app);
    const token = await login(user.username, user.password);
    expect(token.headers['cache-control']).toBe('no-store');
    const session = await t.app.inject({
      method: 'GET',
      url: '/token',
      cookies: { fastapi_token: user.token },
    });
    expect(session.headers['cache-control']).toBe('no-store');
    for (const url of ['/api/my/books', '/api/my/notifications', '/api/my/follows']) {
      const res = await as(t.app, user).get(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      // A visitor's 401 there is not kept either.
      expect((await as(t.app, null).get(url)).headers['cache-control']).toBe('no-store');
    }
    const signedUp = await t.app.inject({
      method: 'POST',
      url: '/api/authors',
      payload: { username: `nostore_${++ipCounter}`, password: 'password1' },
    });
    expect(signedUp.headers['cache-control']).toBe('no-store');
  });

  it('leaves public reads their ETag and no-cache', async () => {
    const user = await signup(t.app);
    const visitor = await as(t.app, null).get('/api/books');
    expect(visitor.headers['cache-control']).toBe('public, no-cache');
    expect(visitor.headers.etag).toBeDefined();
    const reader = await as(t.app, user).get('/api/books');
    expect(reader.headers['cache-control']).toBe('private, no-cache');
    expect(reader.headers.etag).toBeDefined();
    expect((await as(t.app, null).get('/api/genres')).headers['cache-control']).toBeUndefined();
  });
});

describe('reserved usernames and system notes (#11)', () => {
  it.each(['server', 'Admin', 'INKWELL'])('refuses to sign up as %s with 400', async (name) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/authors',
      payload: { username: name, password: 'password1' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      detail: expect.stringMatching(/reserved/),
      code: 'validation',
      field: 'username',
    });
  });

  it('refuses to rename an account to a reserved name', async () => {
    const user = await signup(t.app);
    const res = await as(t.app, user).put(`/api/authors/${user.id}`, { username: 'Server' });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/reserved/);
  });

  it('sends join and leave notes as system frames, and members lines as {user, message}', async () => {
    const [author, ann, bob] = [await signup(t.app), await signup(t.app), await signup(t.app)];
    const room = `${base}/chat/${author.username}`;
    const annSocket = await connect(`${room}?token=${ann.token}`);
    expect(await annSocket.next()).toEqual({
      type: 'system',
      user: 'server',
      message: `<em>${ann.username} has connected.</em>`,
    });
    annSocket.send('<p>hello</p>');
    expect(await annSocket.next()).toEqual({ user: ann.username, message: '<p>hello</p>' });
    const bobSocket = await connect(`${room}?token=${bob.token}`);
    expect(await bobSocket.next()).toEqual({ user: ann.username, message: '<p>hello</p>' });
    await bobSocket.close();
    expect(await annSocket.next((m) => m.message?.includes('disconnected') ?? false)).toEqual({
      type: 'system',
      user: 'server',
      message: `<em>${bob.username} has disconnected.</em>`,
    });
  });
});

describe('FOLLOW spam and expired sessions (#12)', () => {
  it('tells an author of a follower at most once a day, in the inbox and on the socket', async () => {
    const [author, looper, other] = [await signup(t.app), await signup(t.app), await signup(t.app)];
    const live = await connect(`${base}/ws?token=${author.token}`);
    for (let i = 0; i < 5; i++) {
      expect(
        (await as(t.app, looper).post('/api/follows', { author_id: author.id })).statusCode,
      ).toBe(201);
      expect(
        (await as(t.app, looper).delete('/api/follows', { author_id: author.id })).statusCode,
      ).toBe(200);
    }
    await as(t.app, other).post('/api/follows', { author_id: author.id });
    const pushed = [await live.next(), await live.next()];
    expect(pushed.map((m) => m.follower)).toEqual([looper.username, other.username]);
    expect(await live.drain(200)).toEqual([]);
    const inbox = (await as(t.app, author).get('/api/my/notifications')).json();
    expect(inbox.notifications.map((n: { follower: string }) => n.follower)).toEqual([
      other.username,
      looper.username,
    ]);
    expect(inbox.unread_count).toBe(2);
  });

  it('tells the author again after a day', async () => {
    const [author, reader] = [await signup(t.app), await signup(t.app)];
    await as(t.app, reader).post('/api/follows', { author_id: author.id });
    await as(t.app, reader).delete('/api/follows', { author_id: author.id });
    await t.ctx.db
      .updateTable('notifications')
      .set({ created_at: new Date(Date.now() - 25 * 60 * 60 * 1000).toISOString() })
      .where('user_id', '=', author.id)
      .execute();
    await as(t.app, reader).post('/api/follows', { author_id: author.id });
    const inbox = (await as(t.app, author).get('/api/my/notifications')).json();
    expect(inbox.notifications).toHaveLength(2);
  });

  it("finds a follower's earlier notice through its own index, not the author's whole inbox", async () => {
    const author = await signup(t.app);
    const now = new Date().toISOString();
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      user_id: author.id,
      type: i % 100 === 0 ? ('FOLLOW' as const) : ('CHAPTER' as const),
      message: 'news',
      book_id: null,
      chapter_id: i % 100 === 0 ? null : 1_000_000 + i,
      follower: i % 100 === 0 ? `follower_${i}` : null,
      created_at: now,
    }));
    for (let i = 0; i < rows.length; i += 500)
      await t.ctx.db
        .insertInto('notifications')
        .values(rows.slice(i, i + 500))
        .execute();
    await sql`analyze notifications`.execute(t.ctx.db);

    const { db: logged, statements } = statementLog(t.database.url);
    try {
      const dayAgo = new Date(Date.now() - 86_400_000).toISOString();
      expect(await hasFollowNotificationSince(logged, author.id, 'follower_100', dayAgo)).toBe(
        true,
      );
      const [statement] = statements;
      const explain = isPostgres(logged) ? 'explain (format json)' : 'explain query plan';
      const { rows: plan } = await logged.executeQuery(
        CompiledQuery.raw(`${explain} ${statement!.sql}`, [...statement!.parameters]),
      );
      expect(JSON.stringify(plan)).toContain('notifications_follow_idx');
    } finally {
      await logged.destroy();
    }
  });

  const sessionsOf = (user: TestUser) =>
    t.ctx.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute();

  const expireOneSessionOf = async (user: TestUser) => {
    const [first] = await sessionsOf(user);
    await t.ctx.db
      .updateTable('sessions')
      .set({ expires_at: '2001-01-01T00:00:00.000Z' })
      .where('id', '=', first!.id)
      .execute();
  };

  it('purges expired sessions every SESSION_PURGE_INTERVAL_SECONDS, until the app stops', async () => {
    const user = await signup(t.app);
    await login(user.username, user.password);
    await login(user.username, user.password);
    const often = await createTestApp(
      { SESSION_PURGE_INTERVAL_SECONDS: '0.05' },
      { database: t.database },
    );
    try {
      await expireOneSessionOf(user);
      await expect.poll(async () => (await sessionsOf(user)).length).toBe(2);
      await expireOneSessionOf(user);
      await expect.poll(async () => (await sessionsOf(user)).length).toBe(1);
    } finally {
      await often.close();
    }
    await login(user.username, user.password);
    await expireOneSessionOf(user);
    await new Promise((r) => setTimeout(r, 200));
    expect(await sessionsOf(user)).toHaveLength(2);
  });

  it('purges once per interval across apps: a new app does not purge again before it is due', async () => {
    const user = await signup(t.app);
    await login(user.username, user.password);
    await expireOneSessionOf(user);
    const second = await createTestApp({}, { database: t.database });
    try {
      await new Promise((r) => setTimeout(r, 200));
      expect(await sessionsOf(user)).toHaveLength(2);
    } finally {
      await second.close();
    }
  });
});

describe('slow clients (#13)', () => {
  let slow: TestApp;
  let port: number;
  beforeAll(async () => {
    slow = await createTestApp({ REQUEST_TIMEOUT_SECONDS: '1', CONNECTION_TIMEOUT_SECONDS: '1' });
    await slow.app.listen({ port: 0, host: '127.0.0.1' });
    port = (slow.app.server.address() as AddressInfo).port;
  });
  afterAll(() => slow.close());

  /** Opens a raw connection; answers what the server sent and how long until it closed. */
  function rawClient(drip: (socket: net.Socket) => void) {
    const started = performance.now();
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('error', () => {});
    socket.once('connect', () => drip(socket));
    return new Promise<{ received: string; seconds: number }>((resolve) => {
      const bound = setTimeout(() => socket.destroy(), 8000);
      socket.once('close', () => {
        clearTimeout(bound);
        resolve({ received, seconds: (performance.now() - started) / 1000 });
      });
    });
  }

  it('cuts off a request whose body is dripped slowly', async () => {
    let timer: NodeJS.Timeout | undefined;
    const { received, seconds } = await rawClient((socket) => {
      socket.write(
        'POST /token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
      );
      // A byte every 200 ms: never idle, never done.
      timer = setInterval(() => socket.writable && socket.write(' '), 200);
    });
    clearInterval(timer);
    expect(seconds).toBeLessThan(6);
    expect(received).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes a connection that sends nothing', async () => {
    const { seconds } = await rawClient(() => {});
    expect(seconds).toBeLessThan(6);
  });

  it('keeps WebSockets open past the timeouts', async () => {
    const user = await signup(slow.app);
    const socket = await connect(`ws://127.0.0.1:${port}/ws?token=${user.token}`);
    await new Promise((r) => setTimeout(r, 2500));
    expect(socket.ws.readyState).toBe(socket.ws.OPEN);
  });
});
