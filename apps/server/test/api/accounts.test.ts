import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, signup, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_MAX_FAILURES: '5', LOGIN_WINDOW_SECONDS: '20' });
});
afterAll(() => t.close());

const cookieFrom = (res: { headers: Record<string, unknown> }) => {
  const raw = res.headers['set-cookie'];
  const line = (Array.isArray(raw) ? raw : [raw]).find((c) =>
    String(c).startsWith('fastapi_token='),
  );
  return String(line ?? '');
};

describe('signup', () => {
  it('creates the account, signs in and sets the session cookie', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/authors',
      payload: { username: 'ada.l', password: 'password1' },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.token_type).toBe('bearer');
    expect(body.access_token).toMatch(/^[\w-]{40,}$/);
    expect(body.account).toMatchObject({ username: 'ada.l', first_name: '', avatar: null });
    expect(JSON.stringify(body)).not.toMatch(/password|argon/i);
    const cookie = cookieFrom(res);
    expect(cookie).toContain(`fastapi_token=${body.access_token}`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });

  it('answers 409 for a taken username, whatever its case', async () => {
    await signup(t.app, 'taken_name');
    for (const username of ['taken_name', 'TAKEN_NAME']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/authors',
        payload: { username, password: 'password1' },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'conflict' });
    }
  });

  it.each([
    [{ username: 'ab', password: 'password1' }, /username/],
    [{ username: 'a'.repeat(31), password: 'password1' }, /username/],
    [{ username: 'bad name', password: 'password1' }, /username/],
    [{ username: 'émile', password: 'password1' }, /username/],
    [{ username: 'goodname', password: 'short' }, /password.*8/],
    [{ username: 'goodname' }, /password/],
    [{ password: 'password1' }, /username/],
  ])('refuses %j with 400 naming the rule', async (payload, rule) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/authors', payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation');
    expect(res.json().detail).toMatch(rule);
  });
});

describe('token', () => {
  it('logs in with form fields, answers the token and sets the cookie', async () => {
    const user = await signup(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `username=${user.username}&password=${encodeURIComponent(user.password)}`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ access_token: expect.any(String), token_type: 'bearer' });
    expect(cookieFrom(res)).toContain(res.json().access_token);
  });

  it('answers 401 with the spec message for wrong credentials and unknown users', async () => {
    const user = await signup(t.app);
    for (const payload of [
      { username: user.username, password: 'wrong-password' },
      { username: 'nobody_here', password: 'whatever1' },
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/token',
        headers: { 'x-forwarded-for': '10.0.0.9' },
        payload,
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        detail: 'Incorrect username or password',
        code: 'unauthorized',
      });
    }
  });

  it('GET /token reads the session from the cookie, and answers a null token without one', async () => {
    const user = await signup(t.app);
    const withCookie = await t.app.inject({
      method: 'GET',
      url: '/token',
      cookies: { fastapi_token: user.token },
    });
    expect(withCookie.statusCode).toBe(200);
    expect(withCookie.json()).toMatchObject({
      access_token: user.token,
      token_type: 'bearer',
      account: { id: user.id, username: user.username },
    });

    const without = await t.app.inject({ method: 'GET', url: '/token' });
    expect(without.statusCode).toBe(200);
    expect(without.json()).toEqual({ access_token: null });

    const bogus = await t.app.inject({
      method: 'GET',
      url: '/token',
      cookies: { fastapi_token: 'not-a-token' },
    });
    expect(bogus.json()).toEqual({ access_token: null });
  });

  it('DELETE /token ends the session everywhere and clears the cookie', async () => {
    const user = await signup(t.app);
    expect((await as(t.app, user).get('/api/my/books')).statusCode).toBe(200);
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/token',
      cookies: { fastapi_token: user.token },
    });
    expect(res.statusCode).toBe(200);
    expect(cookieFrom(res)).toMatch(/fastapi_token=;/);
    expect((await as(t.app, user).get('/api/my/books')).statusCode).toBe(401);
    const after = await t.app.inject({
      method: 'GET',
      url: '/token',
      cookies: { fastapi_token: user.token },
    });
    expect(after.json()).toEqual({ access_token: null });
  });

  it("DELETE /token ends the cookie's session too when another bearer comes with it", async () => {
    const user = await signup(t.app);
    // Another tab signed in again: the page still holds its old bearer, the cookie the new one.
    const signInAgain = async () =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/token',
          payload: { username: user.username, password: user.password },
        })
      ).json().access_token as string;
    const logout = (bearer: string, cookie: string) =>
      t.app.inject({
        method: 'DELETE',
        url: '/token',
        headers: { authorization: `Bearer ${bearer}` },
        cookies: { fastapi_token: cookie },
      });
    const signedIn = async (token: string) =>
      (await as(t.app, { token }).get('/api/my/books')).statusCode === 200;

    // The bearer's session already ended (logged out in that other tab before signing in again).
    const fresh = await signInAgain();
    expect((await logout('ended-in-another-tab', fresh)).statusCode).toBe(200);
    expect(await signedIn(fresh)).toBe(false);
    // Both live: both end.
    const newer = await signInAgain();
    expect(await signedIn(user.token)).toBe(true);
    expect((await logout(user.token, newer)).statusCode).toBe(200);
    expect(await signedIn(newer)).toBe(false);
    expect(await signedIn(user.token)).toBe(false);
  });

  it('refuses an expired session', async () => {
    const user = await signup(t.app);
    await t.ctx.db
      .updateTable('sessions')
      .set({ expires_at: '2000-01-01T00:00:00.000Z' })
      .execute();
    expect((await as(t.app, user).get('/api/my/books')).statusCode).toBe(401);
  });

  it('rate-limits failed logins per username with 429 and Retry-After', async () => {
    const user = await signup(t.app);
    const attempt = (ip: string, password = 'wrong-password') =>
      t.app.inject({
        method: 'POST',
        url: '/token',
        remoteAddress: ip,
        payload: { username: user.username, password },
      });
    for (let i = 0; i < 5; i++) expect((await attempt(`10.1.0.${i}`)).statusCode).toBe(401);
    const limited = await attempt('10.1.0.99', user.password);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().code).toBe('rate_limited');
  });

  it("lets the owner's known browser in while someone else's wrong guesses lock the username", async () => {
    const [owner, other] = [await signup(t.app), await signup(t.app)];
    const attempt = (ip: string, password: string, device?: string, username = owner.username) =>
      t.app.inject({
        method: 'POST',
        url: '/token',
        remoteAddress: ip,
        payload: { username, password },
        ...(device !== undefined && { cookies: { inkwell_device: device } }),
      });
    const deviceOf = (res: { cookies: Array<{ name: string; value: string }> }) =>
      res.cookies.find((c) => c.name === 'inkwell_device')!.value;
    const known = deviceOf(await attempt('10.3.0.1', owner.password));
    const othersDevice = deviceOf(
      await attempt('10.3.0.2', other.password, undefined, other.username),
    );
    expect(known).toMatch(new RegExp(`^${owner.id}\\.`));

    // Someone else, from anywhere, locks the username.
    for (let i = 0; i < 5; i++)
      expect((await attempt(`10.3.1.${i}`, 'wrong-guess')).statusCode).toBe(401);
    expect((await attempt('10.3.0.9', owner.password)).statusCode).toBe(429);
    // A device cookie of someone else's, or a forged one, is no way around it.
    expect((await attempt('10.3.0.9', owner.password, othersDevice)).statusCode).toBe(429);
    const forged = `${known.slice(0, -2)}${known.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await attempt('10.3.0.9', owner.password, forged)).statusCode).toBe(429);
    // The owner's own browser gets in, and is given a fresh cookie.
    const back = await attempt('10.3.0.9', owner.password, known);
    expect(back.statusCode).toBe(200);
    expect(deviceOf(back)).not.toBe(known);

    // A stolen device cookie still meets a back-off of its own.
    for (let i = 0; i < 5; i++)
      expect((await attempt(`10.3.2.${i}`, 'wrong-guess', known)).statusCode).toBe(401);
    expect((await attempt('10.3.2.9', owner.password, known)).statusCode).toBe(429);
  });

  it("lets the owner's known browser confirm a password change while the username is locked", async () => {
    const owner = await signup(t.app);
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/token',
      remoteAddress: '10.4.0.1',
      payload: { username: owner.username, password: owner.password },
    });
    const device = signedIn.cookies.find((c) => c.name === 'inkwell_device')!.value;
    const token = signedIn.json().access_token as string;
    for (let i = 0; i < 5; i++) {
      const wrong = await t.app.inject({
        method: 'POST',
        url: '/token',
        remoteAddress: `10.4.1.${i}`,
        payload: { username: owner.username, password: 'wrong-guess' },
      });
      expect(wrong.statusCode).toBe(401);
    }
    const change = (cookies: Record<string, string>) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/authors/${owner.id}`,
        remoteAddress: '10.4.0.1',
        headers: { authorization: `Bearer ${token}` },
        cookies,
        payload: { password: 'a-new-password-1', current_password: owner.password },
      });
    expect((await change({})).statusCode).toBe(429);
    const changed = await change({ inkwell_device: device });
    expect(changed.statusCode, changed.body).toBe(200);

    // The new password retired the old cookie, and the browser that changed it got a new one:
    // once the username is locked again, that one still gets in and the old one does not.
    const renewed = changed.cookies.find((c) => c.name === 'inkwell_device');
    expect(renewed?.value).toMatch(new RegExp(`^${owner.id}\\.`));
    const login = (cookie: string, password = 'a-new-password-1', ip = '10.4.0.1') =>
      t.app.inject({
        method: 'POST',
        url: '/token',
        remoteAddress: ip,
        cookies: { inkwell_device: cookie },
        payload: { username: owner.username, password },
      });
    for (let i = 0; i < 5; i++)
      expect((await login('', 'wrong-guess', `10.4.2.${i}`)).statusCode).toBe(401);
    expect((await login(device)).statusCode).toBe(429);
    expect((await login(renewed!.value)).statusCode).toBe(200);
  });

  it('rate-limits failed logins per IP across usernames', async () => {
    const attempt = (n: number) =>
      t.app.inject({
        method: 'POST',
        url: '/token',
        remoteAddress: '10.2.0.1',
        payload: { username: `ghost${n}`, password: 'nope-nope' },
      });
    for (let i = 0; i < 5; i++) expect((await attempt(i)).statusCode).toBe(401);
    expect((await attempt(99)).statusCode).toBe(429);
  });
});

describe('authentication on (auth) calls', () => {
  it('accepts the bearer header or the cookie, and answers 401 with neither', async () => {
    const user = await signup(t.app);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/my/books',
          headers: { authorization: `Bearer ${user.token}` },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/my/books',
          cookies: { fastapi_token: user.token },
        })
      ).statusCode,
    ).toBe(200);
    const none = await t.app.inject({ method: 'GET', url: '/api/my/books' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ detail: expect.any(String), code: 'unauthorized' });
  });

  it('refuses cookie-authenticated writes from another origin, but not bearer ones', async () => {
    const user = await signup(t.app);
    const crossSite = await t.app.inject({
      method: 'POST',
      url: '/api/books',
      cookies: { fastapi_token: user.token },
      headers: { origin: 'https://evil.example' },
      payload: { title: 'Forged' },
    });
    expect(crossSite.statusCode).toBe(403);
    const sameSite = await t.app.inject({
      method: 'POST',
      url: '/api/books',
      cookies: { fastapi_token: user.token },
      headers: { origin: 'http://localhost:3000', host: 'localhost:3000' },
      payload: { title: 'Mine' },
    });
    expect(sameSite.statusCode).toBe(201);
    const bearer = await t.app.inject({
      method: 'POST',
      url: '/api/books',
      headers: { origin: 'https://elsewhere.example', authorization: `Bearer ${user.token}` },
      payload: { title: 'Also mine' },
    });
    expect(bearer.statusCode).toBe(201);
  });
});
