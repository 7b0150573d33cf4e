import crypto from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loadConfig } from '../../src/config.ts';
import { createBook, createTestApp, signup, type TestApp, type TestUser } from '../helpers/app.ts';
import { multipart } from '../helpers/images.ts';
import { closeAllSockets, listen } from '../helpers/ws.ts';

/*
 * Issue 24 #7: signup, login, export, import, feeds and WebSocket upgrades had no limit per
 * client address. Small limits here; the defaults are far above what people do.
 */

const LIMITS = {
  RATE_LIMIT_SIGNUP: '3/hour',
  RATE_LIMIT_LOGIN: '3/minute',
  RATE_LIMIT_EXPORT: '4/minute',
  RATE_LIMIT_EXPORT_PER_USER: '2/minute',
  RATE_LIMIT_IMPORT: '2/hour',
  RATE_LIMIT_FEEDS: '3/minute',
  RATE_LIMIT_SOCKETS: '3/minute',
};

let t: TestApp;
let author: TestUser;
let bookId: number;
beforeAll(async () => {
  t = await createTestApp(LIMITS);
  author = await signup(t.app);
  bookId = (await createBook(t.app, author, 'Limited', { published: true })).id;
});
afterAll(async () => {
  await closeAllSockets();
  await t.close();
});

let addressCounter = 0;
const newAddress = () => `10.77.${Math.floor(++addressCounter / 250)}.${addressCounter % 250}`;

/** Sends `times` times the request from one address; answers the status codes and the last answer. */
async function statusesFrom(app: TestApp['app'], request: () => InjectOptions, times: number) {
  const codes: number[] = [];
  let last: LightMyRequestResponse | undefined;
  for (let i = 0; i < times; i++) {
    last = await app.inject(request());
    codes.push(last.statusCode);
  }
  return { codes, last: last! };
}

function expectHouse429(res: LightMyRequestResponse, what: RegExp) {
  expect(res.statusCode).toBe(429);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(res.json()).toEqual({
    detail: expect.stringMatching(what),
    code: 'rate_limited',
  });
  expect(res.json().detail).toContain(`Try again in ${retryAfter} s.`);
  expectNoCounts(res);
}

/** No X-RateLimit-* (nor RateLimit-*) headers: shared caches would keep them with a feed. */
function expectNoCounts(res: LightMyRequestResponse) {
  expect(Object.keys(res.headers).filter((name) => /ratelimit/i.test(name))).toEqual([]);
}

describe('per-address limits', () => {
  it('limits sign-ups from one address, not from the next', async () => {
    const address = newAddress();
    const request = () => ({
      method: 'POST' as const,
      url: '/api/authors',
      remoteAddress: address,
      payload: { username: `rl_${crypto.randomBytes(4).toString('hex')}`, password: 'password1' },
    });
    const { codes, last } = await statusesFrom(t.app, request, 4);
    expect(codes).toEqual([201, 201, 201, 429]);
    expectHouse429(last, /^Too many sign-ups from your address\. /);
    expect(Number(last.headers['retry-after'])).toBeLessThanOrEqual(3600);
    // Nothing was created by the refused one, and another address is not affected.
    expect((await t.app.inject({ ...request(), remoteAddress: newAddress() })).statusCode).toBe(
      201,
    );
  });

  it('limits sign-in attempts, right or wrong, before any password is checked', async () => {
    const address = newAddress();
    const login = (password: string) => () => ({
      method: 'POST' as const,
      url: '/token',
      remoteAddress: address,
      payload: { username: author.username, password },
    });
    const { codes } = await statusesFrom(t.app, login(author.password), 3);
    expect(codes).toEqual([200, 200, 200]);
    const refused = await t.app.inject(login(author.password)());
    expectHouse429(refused, /^Too many sign-in attempts from your address\. /);
    expect(refused.headers['set-cookie']).toBeUndefined();
  });

  it('limits feed reads per address', async () => {
    const address = newAddress();
    const { codes, last } = await statusesFrom(
      t.app,
      () => ({ method: 'GET', url: `/api/books/${bookId}/feed.atom`, remoteAddress: address }),
      4,
    );
    expect(codes).toEqual([200, 200, 200, 429]);
    expectHouse429(last, /^Too many feed reads from your address\. /);
    // Each feed route counts on its own.
    const authorFeed = await t.app.inject({
      method: 'GET',
      url: `/api/authors/${author.id}/feed.atom`,
      remoteAddress: address,
    });
    expect(authorFeed.statusCode).toBe(200);
    expectNoCounts(authorFeed);
  });

  it('counts a HEAD request of a limited route once, with its GETs', async () => {
    const address = newAddress();
    const codes = [];
    for (const method of ['GET', 'HEAD', 'HEAD', 'GET'] as const) {
      const res = await t.app.inject({
        method,
        url: `/api/books/${bookId}/feed.atom`,
        remoteAddress: address,
      });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([200, 200, 200, 429]);
  });

  it('counts an IPv6 client by its /64, and an IPv4-mapped address as the IPv4 one', async () => {
    const read = (remoteAddress: string) =>
      t.app.inject({ method: 'GET', url: `/api/books/${bookId}/feed.atom`, remoteAddress });
    const statuses = async (addresses: string[]) => {
      const codes = [];
      for (const address of addresses) codes.push((await read(address)).statusCode);
      return codes;
    };
    // Four addresses of one /64, however written: one client.
    expect(
      await statuses([
        '2001:db8:77:1::1',
        '2001:db8:77:1:ffff:ffff:ffff:fffe',
        '2001:0db8:0077:0001:0000:0000:0000:0003',
        '2001:db8:77:1::10.0.0.4',
      ]),
    ).toEqual([200, 200, 200, 429]);
    // The next /64 is someone else.
    expect(await statuses(['2001:db8:77:2::1'])).toEqual([200]);

    const v4 = newAddress();
    expect(await statuses([`::ffff:${v4}`, v4, `::ffff:${v4}`, v4])).toEqual([200, 200, 200, 429]);
  });

  it('limits imports per address', async () => {
    const address = newAddress();
    const users = [await signup(t.app), await signup(t.app), await signup(t.app)];
    const codes: number[] = [];
    let last;
    for (const user of users) {
      const form = multipart(
        'file',
        Buffer.from('# A story\n\nText.\n'),
        'story.md',
        'text/markdown',
      );
      last = await t.app.inject({
        method: 'POST',
        url: '/api/imports',
        remoteAddress: address,
        headers: { ...form.headers, authorization: `Bearer ${user.token}` },
        payload: form.payload,
      });
      codes.push(last.statusCode);
    }
    expect(codes).toEqual([202, 202, 429]);
    expectHouse429(last!, /^Too many imports from your address\. /);
  });

  it('limits EPUB exports per address, and per signed-in user from any address', async () => {
    const address = newAddress();
    const { codes, last } = await statusesFrom(
      t.app,
      () => ({ method: 'GET', url: `/api/books/${bookId}/export.epub`, remoteAddress: address }),
      5,
    );
    expect(codes).toEqual([200, 200, 200, 200, 429]);
    expectHouse429(last, /^Too many exports from your address\. /);

    const reader = await signup(t.app);
    const asReader = () => ({
      method: 'GET' as const,
      url: `/api/books/${bookId}/export.epub`,
      remoteAddress: newAddress(),
      headers: { authorization: `Bearer ${reader.token}` },
    });
    const byUser = await statusesFrom(t.app, asReader, 3);
    expect(byUser.codes).toEqual([200, 200, 429]);
    expectHouse429(byUser.last, /^Too many exports\. /);
  });

  it('limits WebSocket upgrades per address with a plain 429 before any upgrade work', async () => {
    const limited = await createTestApp(LIMITS, { database: t.database });
    try {
      const base = await listen(limited.app);
      const user = await signup(limited.app);
      const outcomes: Array<number | 'open'> = [];
      for (let i = 0; i < 4; i++) {
        outcomes.push(
          await new Promise((resolve) => {
            const ws = new WebSocket(`${base}/ws?token=${user.token}`);
            ws.on('open', () => {
              ws.close();
              resolve('open');
            });
            ws.on('unexpected-response', (_request, response) => {
              expect(response.headers['retry-after']).toMatch(/^\d+$/);
              resolve(response.statusCode ?? 0);
            });
            ws.on('error', () => {});
          }),
        );
      }
      expect(outcomes).toEqual(['open', 'open', 'open', 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('settings', () => {
  it('default to limits people never reach, and can be turned off', () => {
    const defaults = loadConfig({});
    expect(defaults.RATE_LIMIT_SIGNUP).toEqual({ max: 100, windowMs: 3_600_000 });
    expect(defaults.RATE_LIMIT_LOGIN).toEqual({ max: 60, windowMs: 60_000 });
    expect(defaults.RATE_LIMIT_SOCKETS).toEqual({ max: 600, windowMs: 60_000 });
    expect(loadConfig({ RATE_LIMIT_FEEDS: 'off' }).RATE_LIMIT_FEEDS).toBeNull();
    expect(loadConfig({ RATE_LIMIT_FEEDS: '5 / second' }).RATE_LIMIT_FEEDS).toEqual({
      max: 5,
      windowMs: 1000,
    });
  });

  it('refuses a limit it cannot read, at start', () => {
    expect(() => loadConfig({ RATE_LIMIT_LOGIN: '60 per minute' })).toThrow(
      /RATE_LIMIT_LOGIN: give N\/second, N\/minute, N\/hour or N\/day, or off/,
    );
  });
});

describe('with Redis', () => {
  it('counts one address across every process', async () => {
    const shared = {
      ...LIMITS,
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_PREFIX: `inkwell-test-${crypto.randomBytes(6).toString('hex')}`,
    };
    const first = await createTestApp(shared, { database: t.database });
    const second = await createTestApp(shared, { database: t.database });
    try {
      const address = newAddress();
      const read = (app: TestApp) =>
        app.app.inject({
          method: 'GET',
          url: `/api/books/${bookId}/feed.atom`,
          remoteAddress: address,
        });
      const codes = [];
      for (const app of [first, second, first, second]) codes.push((await read(app)).statusCode);
      expect(codes).toEqual([200, 200, 200, 429]);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
