import { WS_CLOSE } from '@inkwell/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  createBook,
  createTestApp,
  signup,
  type TestApp,
  type TestUser,
} from '../helpers/app.ts';
import { testEngine } from '../helpers/database.ts';
import { makeImage, multipart } from '../helpers/images.ts';
import { closeAllSockets, connect, listen } from '../helpers/ws.ts';

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await listen(t.app);
});
afterEach(() => closeAllSockets());
afterAll(() => t.close());

const HOST = 'inkwell.test';
const cookieToken = (res: LightMyRequestResponse) => {
  const line = [res.headers['set-cookie'] ?? []]
    .flat()
    .find((c) => String(c).startsWith('fastapi_token='));
  return /^fastapi_token=([^;]*)/.exec(String(line ?? ''))?.[1];
};

async function login(
  user: TestUser,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: '/token',
    headers: { host: HOST, ...headers },
    payload: { username: user.username, password: user.password },
  });
}

/** A second session of the same user: the token another browser or device holds. */
async function secondSession(user: TestUser): Promise<string> {
  const res = await login(user);
  expect(res.statusCode).toBe(200);
  return res.json().access_token;
}

/** How each door treats a token: HTTP by bearer and by cookie, and both WebSockets. */
async function doorsFor(token: string, roomOwner: string) {
  const bearer = await t.app.inject({
    method: 'GET',
    url: '/api/my/books',
    headers: { authorization: `Bearer ${token}` },
  });
  const cookie = await t.app.inject({
    method: 'GET',
    url: '/api/my/books',
    cookies: { fastapi_token: token },
  });
  const session = await t.app.inject({
    method: 'GET',
    url: '/token',
    cookies: { fastapi_token: token },
  });
  const stream = await connect(`${base}/ws?token=${encodeURIComponent(token)}`);
  const chat = await connect(`${base}/chat/${roomOwner}?token=${encodeURIComponent(token)}`);
  // An admitted socket stays open; a refused one is closed at once with 4401.
  const outcome = (socket: typeof stream) =>
    Promise.race([
      socket.closed.then((c) => c.code),
      new Promise<string>((resolve) => setTimeout(() => resolve('open'), 300)),
    ]);
  const result = {
    bearer: bearer.statusCode,
    cookie: cookie.statusCode,
    sessionToken: session.json().access_token === token,
    notifications: await outcome(stream),
    chat: await outcome(chat),
  };
  await Promise.all([stream.close(), chat.close()]);
  return result;
}

const REFUSED = {
  bearer: 401,
  cookie: 401,
  sessionToken: false,
  notifications: WS_CLOSE.unauthorized,
  chat: WS_CLOSE.unauthorized,
};
const ADMITTED = {
  bearer: 200,
  cookie: 200,
  sessionToken: true,
  notifications: 'open',
  chat: 'open',
};

describe(`cross-site requests authenticated by the cookie (${testEngine()})`, () => {
  let owner: TestUser;
  let bookId: number;
  beforeAll(async () => {
    owner = await signup(t.app);
    bookId = (await createBook(t.app, owner, 'Guarded', { published: true })).id;
  });

  const writes = () => [
    {
      method: 'PUT' as const,
      url: `/api/books/${bookId}`,
      payload: { title: 'Defaced', summary: '', is_published: true },
    },
    { method: 'DELETE' as const, url: `/api/books/${bookId}` },
    {
      method: 'PUT' as const,
      url: `/api/authors/${owner.id}`,
      payload: { biography: '<p>pwned</p>' },
    },
    { method: 'POST' as const, url: '/api/books', payload: { title: 'Planted' } },
    { method: 'DELETE' as const, url: '/token' },
  ];

  it.each([
    ['an Origin of another site', { origin: 'https://evil.example' }],
    ['Origin: null (a sandboxed frame or a data: page)', { origin: 'null' }],
    ['an Origin of the same host on another port', { origin: `http://${HOST}:8081` }],
    ['no Origin but Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
  ])('refuses every write with %s, and changes nothing', async (_what, headers) => {
    for (const write of writes()) {
      const res = await t.app.inject({
        ...write,
        headers: { host: HOST, ...headers },
        cookies: { fastapi_token: owner.token },
      });
      expect(res.statusCode, `${write.method} ${write.url}`).toBe(403);
      expect(res.json()).toEqual({ detail: 'Cross-site request refused', code: 'forbidden' });
    }
    const form = multipart('image', await makeImage('png'), 'a.png', 'image/png');
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/authors/avatar',
      headers: { ...form.headers, host: HOST, ...headers },
      cookies: { fastapi_token: owner.token },
      payload: form.payload,
    });
    expect(upload.statusCode).toBe(403);
    const book = await as(t.app, owner).get(`/api/books/${bookId}`);
    expect(book.json().title).toBe('Guarded');
    expect((await as(t.app, owner).get(`/api/authors/${owner.id}`)).json().biography).not.toContain(
      'pwned',
    );
    expect(
      (await as(t.app, owner).get('/api/my/books')).json().map((b: { title: string }) => b.title),
    ).toEqual(['Guarded']);
    expect((await doorsFor(owner.token, owner.username)).bearer).toBe(200);
  });

  it('accepts the same writes from its own origin (Origin or Sec-Fetch-Site: same-origin)', async () => {
    for (const headers of [{ origin: `http://${HOST}` }, { 'sec-fetch-site': 'same-origin' }]) {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/books/${bookId}`,
        headers: { host: HOST, ...headers },
        cookies: { fastapi_token: owner.token },
        payload: { title: 'Guarded', summary: 'kept', is_published: true },
      });
      expect(res.statusCode).toBe(200);
    }
  });

  it('sets the session cookie HttpOnly and SameSite=Lax, so other sites cannot read it or send it on their forms', async () => {
    const res = await login(owner);
    const line = String(
      [res.headers['set-cookie']].flat().find((c) => String(c).startsWith('fastapi_token=')),
    );
    expect(line).toMatch(/;\s*HttpOnly/i);
    expect(line).toMatch(/;\s*SameSite=Lax/i);
    expect(line).toMatch(/;\s*Path=\//i);
  });
});

describe('session fixation', () => {
  it('never adopts a session id the client brought: logging in issues a new token', async () => {
    const [victim, attacker] = [await signup(t.app), await signup(t.app)];
    for (const planted of ['attacker-chosen-value-0123456789abcdef', attacker.token]) {
      const res = await login(victim, { cookie: `fastapi_token=${planted}` });
      expect(res.statusCode).toBe(200);
      const issued = cookieToken(res);
      expect(issued).toBe(res.json().access_token);
      expect(issued).not.toBe(planted);
      const session = await t.app.inject({
        method: 'GET',
        url: '/token',
        cookies: { fastapi_token: issued! },
      });
      expect(session.json().account.username).toBe(victim.username);
    }
    // The made-up value never became a session.
    const made = await t.app.inject({
      method: 'GET',
      url: '/token',
      cookies: { fastapi_token: 'attacker-chosen-value-0123456789abcdef' },
    });
    expect(made.json().access_token).toBeNull();
  });
});

describe('ending sessions', () => {
  it('refuses a logged-out token on HTTP (bearer and cookie) and on both WebSockets; other sessions live on', async () => {
    const user = await signup(t.app);
    const other = await secondSession(user);
    expect(await doorsFor(user.token, user.username)).toEqual(ADMITTED);
    expect((await as(t.app, user).delete('/token')).statusCode).toBe(200);
    expect(await doorsFor(user.token, user.username)).toEqual(REFUSED);
    expect(await doorsFor(other, user.username)).toEqual(ADMITTED);
  });

  it("ends the user's other sessions on a password change, and keeps the one that made it", async () => {
    const user = await signup(t.app);
    const [laptop, phone] = [await secondSession(user), await secondSession(user)];
    const stranger = await signup(t.app);
    const changed = await as(t.app, user).put(`/api/authors/${user.id}`, {
      password: 'a brand new passphrase',
    });
    expect(changed.statusCode).toBe(200);

    for (const token of [laptop, phone])
      expect(await doorsFor(token, user.username)).toEqual(REFUSED);
    expect(await doorsFor(user.token, user.username)).toEqual(ADMITTED);
    // Nobody else was signed out.
    expect(await doorsFor(stranger.token, user.username)).toEqual(ADMITTED);
    expect((await login({ ...user, password: user.password })).statusCode).toBe(401);
    expect((await login({ ...user, password: 'a brand new passphrase' })).statusCode).toBe(200);
  });

  it('does not end sessions on a profile change without a new password', async () => {
    const user = await signup(t.app);
    const laptop = await secondSession(user);
    for (const payload of [{ biography: '<p>hi</p>' }, { password: '' }, { password: null }]) {
      expect((await as(t.app, user).put(`/api/authors/${user.id}`, payload)).statusCode).toBe(200);
    }
    expect((await doorsFor(laptop, user.username)).bearer).toBe(200);
  });
});

describe('security headers', () => {
  const hasDirective = (policy: string | undefined, directive: string) =>
    (policy ?? '')
      .split(';')
      .map((d) => d.trim().replace(/\s+/g, ' '))
      .includes(directive);

  it.each(['/', '/books', '/books/1/some-title', '/login'])(
    'gives the HTML page %s a policy that forbids inline scripts',
    async (url) => {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      const policy = String(res.headers['content-security-policy']);
      const scripts =
        /(?:^|;)\s*script-src ([^;]*)/.exec(policy)?.[1] ??
        /(?:^|;)\s*default-src ([^;]*)/.exec(policy)?.[1];
      expect(scripts).toBeDefined();
      expect(scripts).not.toMatch(/'unsafe-inline'|'unsafe-eval'|\*|data:/);
      expect(hasDirective(policy, "frame-ancestors 'none'")).toBe(true);
      expect(hasDirective(policy, "object-src 'none'")).toBe(true);
      expect(hasDirective(policy, "base-uri 'self'")).toBe(true);
    },
  );

  it.each([
    ['a JSON answer', '/api/genres'],
    ['an error', '/api/books/999999'],
    ['the OpenAPI document', '/api/openapi.json'],
    ['a liveness probe', '/healthz'],
  ])(
    'gives %s nosniff, a strict referrer policy, no framing and a deny-all policy',
    async (_what, url) => {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toMatch(
        /^(no-referrer|same-origin|strict-origin(-when-cross-origin)?)$/,
      );
      expect(res.headers['x-frame-options']).toBe('DENY');
      const policy = String(res.headers['content-security-policy']);
      expect(hasDirective(policy, "default-src 'none'")).toBe(true);
      expect(hasDirective(policy, "frame-ancestors 'none'")).toBe(true);
    },
  );

  it('serves uploaded images under the deny-all policy, so even a crafted file cannot run', async () => {
    const user = await signup(t.app);
    const form = multipart('image', await makeImage('png'), 'a.png', 'image/png');
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/authors/avatar',
      headers: { ...form.headers, authorization: `Bearer ${user.token}` },
      payload: form.payload,
    });
    const image = await t.app.inject({ method: 'GET', url: uploaded.json().href });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toMatch(/^image\/(png|jpeg)$/);
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(
      hasDirective(String(image.headers['content-security-policy']), "default-src 'none'"),
    ).toBe(true);
  });

  it('lets the API reference page run only its own bootstrap script', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    const policy = String(res.headers['content-security-policy']);
    expect(policy).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
    expect(/script-src ([^;]*)/.exec(policy)?.[1]).not.toContain('unsafe-inline');
    expect(hasDirective(policy, "frame-ancestors 'none'")).toBe(true);
  });
});
