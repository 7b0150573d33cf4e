import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createTestApp } from '../helpers/app.ts';

// Issue 24 #3: TRUST_PROXY=true believed every hop of X-Forwarded-For, so a client chose its own
// address and escaped the per-IP login limit.

describe('TRUST_PROXY', () => {
  it('takes the proxies\' addresses, and refuses "every hop" and hop counts', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'loopback' }).TRUST_PROXY).toBe('loopback');
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8,127.0.0.1' }).TRUST_PROXY).toBe(
      '10.0.0.0/8, 127.0.0.1',
    );
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/every hop/);
    expect(() => loadConfig({ TRUST_PROXY: '1' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });

  it('counts a client behind a trusted proxy by the address that proxy saw, whatever it forges', async () => {
    const t = await createTestApp({ TRUST_PROXY: 'loopback', LOGIN_MAX_FAILURES: '2' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/token',
          // The client forges a new leftmost address each time; the proxy appends the real one.
          headers: { 'x-forwarded-for': `6.6.6.${i}, 203.0.113.7` },
          payload: { username: `nobody${i}`, password: 'wrong password here' },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses.slice(0, 2)).toEqual([401, 401]);
      expect(statuses.slice(2)).toEqual([429, 429]);
    } finally {
      await t.close();
    }
  });

  it('counts failed logins from one IPv6 /64 together, as the request limits count it', async () => {
    const t = await createTestApp({ TRUST_PROXY: 'loopback', LOGIN_MAX_FAILURES: '2' });
    try {
      const statuses: number[] = [];
      // One subscriber's /64: any address in it is theirs to pick.
      for (const host of ['a', 'b', 'c']) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/token',
          headers: { 'x-forwarded-for': `2001:db8:1:2::${host}` },
          payload: { username: `nobody_${host}`, password: 'wrong password here' },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([401, 401, 429]);
    } finally {
      await t.close();
    }
  });

  it('takes the forwarded host for the cross-site check behind a trusted proxy that rewrites Host', async () => {
    const t = await createTestApp({ TRUST_PROXY: 'loopback' });
    try {
      const headers = (origin: string) => ({
        host: 'backend-1:3000',
        'x-forwarded-host': 'books.example',
        'x-forwarded-proto': 'https',
        origin,
      });
      const payload = { username: 'proxied_reader', password: 'correct horse battery' };
      const signedUp = await t.app.inject({
        method: 'POST',
        url: '/api/authors',
        headers: headers('https://books.example'),
        payload,
      });
      expect(signedUp.statusCode).toBe(201);
      const elsewhere = await t.app.inject({
        method: 'POST',
        url: '/api/authors',
        headers: headers('https://evil.example'),
        payload: { ...payload, username: 'proxied_other' },
      });
      expect(elsewhere.statusCode).toBe(403);
    } finally {
      await t.close();
    }
  });

  // Issue 22 §4: behind a proxy that rewrites Host, the origin is the forwarded scheme and host.
  const logout = (t: Awaited<ReturnType<typeof createTestApp>>, headers: Record<string, string>) =>
    t.app.inject({ method: 'DELETE', url: '/token', headers }).then((res) => res.statusCode);

  it('behind a trusted proxy, compares the whole origin: forwarded scheme, host and port', async () => {
    const t = await createTestApp({ TRUST_PROXY: 'loopback' });
    try {
      const via = (host: string, proto: string, origin: string) =>
        logout(t, {
          host: 'inkwell',
          'x-forwarded-host': host,
          'x-forwarded-proto': proto,
          origin,
        });
      expect(await via('books.example', 'https', 'https://books.example')).toBe(200);
      // A default port written out is the same origin.
      expect(await via('books.example:443', 'https', 'https://books.example')).toBe(200);
      expect(await via('books.example:8443', 'https', 'https://books.example:8443')).toBe(200);
      expect(await via('books.example:8443', 'https', 'https://books.example')).toBe(403);
      // The same host over the other scheme is another origin.
      expect(await via('books.example', 'https', 'http://books.example')).toBe(403);
      expect(await via('books.example', 'http', 'https://books.example')).toBe(403);
      // A proxy that forwards nothing leaves the rewritten Host, which is not the browser's.
      expect(await logout(t, { host: 'inkwell', origin: 'https://books.example' })).toBe(403);
    } finally {
      await t.close();
    }
  });

  it('without TRUST_PROXY believes no forwarded header: Host is compared, scheme aside', async () => {
    const t = await createTestApp({});
    try {
      // A TLS proxy that is not trusted makes every request look like plain HTTP: Host decides.
      expect(await logout(t, { host: 'books.example', origin: 'https://books.example' })).toBe(200);
      expect(
        await logout(t, {
          host: 'inkwell',
          'x-forwarded-host': 'books.example',
          origin: 'https://books.example',
        }),
      ).toBe(403);
    } finally {
      await t.close();
    }
  });

  it("takes PUBLIC_URL's origin as the site's own, behind a proxy that forwards no host", async () => {
    const t = await createTestApp({ TRUST_PROXY: 'loopback', PUBLIC_URL: 'https://books.example' });
    try {
      expect(await logout(t, { host: 'inkwell', origin: 'https://books.example' })).toBe(200);
      expect(await logout(t, { host: 'inkwell', origin: 'http://books.example' })).toBe(403);
      expect(await logout(t, { host: 'inkwell', origin: 'https://evil.example' })).toBe(403);
    } finally {
      await t.close();
    }
  });
});
