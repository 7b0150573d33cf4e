import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { IMPORT_MAX_BYTES } from '@inkwell/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { makeImage, multipart } from '../helpers/images.ts';
import { dropRedisKeys } from '../helpers/live.ts';
import {
  getOnce,
  PROXY_VARIANTS,
  startNginx,
  stopAllNginx,
  type ConfigEdit,
  type Nginx,
} from '../helpers/nginx.ts';
import { freePort } from '../reliability/helpers/process.ts';
import {
  nginxFront,
  twoProcessScenarios,
  unique,
  upstreamOf,
  type Front,
} from '../helpers/two-processes.ts';
import { closeAllSockets } from '../helpers/ws.ts';
import { startServer, stopAllServers, type ServerProcess } from '../reliability/helpers/process.ts';

/**
 * Issue 22 §4: Debian's nginx, with the shipped deploy/nginx/inkwell.conf, in front of two real
 * processes (`tsx apps/server/src/main.ts`) on one PostgreSQL database and Redis, as
 * docs/deploy.md deploys them. The two-process scenarios run through it at the end (each step
 * steered to the process it names); before them, what the proxy itself must get right.
 */
let database: TestDatabase;
let nginx: Nginx;
let front: Front;
const processes: ServerProcess[] = [];
const prefix = `inkwell-lb-${crypto.randomBytes(6).toString('hex')}`;
const PASSWORD = 'correct horse battery';

function backendEnv(): Record<string, string> {
  return {
    DATABASE_URL: database.url,
    REDIS_URL: 'redis://127.0.0.1:6379',
    REDIS_PREFIX: prefix,
    TRUST_PROXY: 'loopback',
    // Counted in Redis, across both processes: the forged-address test below runs into it.
    RATE_LIMIT_LOGIN: '4/minute',
  };
}

const upstream = (server: ServerProcess) => `127.0.0.1:${server.port}`;

/**
 * A browser at `origin`: it sends Origin on every write and keeps the session cookie the server
 * sets, as the web app's fetches do. Answers name the process nginx chose.
 */
function browser(base: string, origin: string) {
  let cookie = '';
  return {
    get cookie() {
      return cookie;
    },
    set cookie(value: string) {
      cookie = value;
    },
    async send(
      method: string,
      url: string,
      options: {
        json?: unknown;
        body?: Buffer;
        headers?: Record<string, string>;
        from?: string;
      } = {},
    ) {
      const res = await fetch(base + url, {
        method,
        headers: {
          ...(method !== 'GET' && { origin: options.from ?? origin }),
          ...(cookie && { cookie }),
          ...(options.json !== undefined && { 'content-type': 'application/json' }),
          ...options.headers,
        },
        body:
          options.json !== undefined
            ? JSON.stringify(options.json)
            : (options.body as Uint8Array<ArrayBuffer> | undefined),
      });
      const set = res.headers.get('set-cookie');
      if (set?.startsWith('fastapi_token=')) {
        const pair = set.split(';')[0]!;
        cookie = pair === 'fastapi_token=' ? '' : pair;
      }
      const text = await res.text();
      return {
        status: res.status,
        upstream: upstreamOf(res.headers),
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test bodies
        json: (): any => JSON.parse(text),
        text,
      };
    },
  };
}

describe.runIf(process.env.TEST_DB === 'postgres')(
  'nginx in front of two processes (deploy/nginx/inkwell.conf)',
  () => {
    beforeAll(async () => {
      database = await createTestDatabase('postgres');
      processes.push(
        ...(await Promise.all([startServer(backendEnv()), startServer(backendEnv())])),
      );
      nginx = await startNginx({ upstreams: processes.map(upstream), showUpstream: true });
      front = nginxFront(nginx, processes);
    });
    afterEach(() => closeAllSockets());
    afterAll(async () => {
      await stopAllNginx();
      await stopAllServers();
      await dropRedisKeys(prefix);
      await database?.drop();
    });

    it('balances plainly round robin, signed in or not, and answers the health checks', async () => {
      const seen: string[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await fetch(`${nginx.http}/readyz`);
        expect(res.status).toBe(200);
        expect(await res.json()).toMatchObject({ status: 'ok' });
        seen.push(upstreamOf(res.headers));
      }
      // No stickiness of any kind: a signed-in browser's requests alternate as well.
      const reader = browser(nginx.http, nginx.http);
      const signedUp = await reader.send('POST', '/api/authors', {
        json: { username: unique('rr'), password: PASSWORD },
      });
      expect(signedUp.status).toBe(201);
      seen.push(signedUp.upstream);
      for (let i = 0; i < 4; i++) {
        const session = await reader.send('GET', '/token');
        expect(session.json().access_token).toBe(signedUp.json().access_token);
        seen.push(session.upstream);
      }
      const [a, b] = processes.map(upstream);
      const alternating = seen.map((_, i) => ((i + seen.indexOf(a!)) % 2 === 0 ? a : b));
      expect(seen).toEqual(alternating);
    });

    it('lets logout and every kind of cookie-authenticated write through from the browser’s origin, and refuses others', async () => {
      const author = browser(nginx.http, nginx.http);
      const hers = unique('writer');
      const signedUp = await author.send('POST', '/api/authors', {
        json: { username: hers, password: PASSWORD },
      });
      expect(signedUp.status).toBe(201);
      expect(author.cookie).toMatch(/^fastapi_token=./);
      const other = await browser(nginx.http, nginx.http).send('POST', '/api/authors', {
        json: { username: unique('followed'), password: PASSWORD },
      });
      const otherId = other.json().account.id as number;

      const statuses: Record<string, number> = {};
      const write = async (
        name: string,
        method: string,
        url: string,
        options?: Parameters<typeof author.send>[2],
      ) => {
        // The same write from another origin, and from ours over the other scheme, is refused
        // first (and changes nothing), then the browser's own goes through.
        for (const from of ['http://evil.example', nginx.http.replace('http:', 'https:')]) {
          const refused = await author.send(method, url, { ...options, from });
          expect(refused.status, `${name} from ${from}`).toBe(403);
          expect(refused.json()).toEqual({
            detail: 'Cross-site request refused',
            code: 'forbidden',
          });
        }
        const res = await author.send(method, url, options);
        statuses[name] = res.status;
        return res;
      };

      const book = (
        await write('create a book', 'POST', '/api/books', { json: { title: 'Proxied' } })
      ).json();
      await write('publish it', 'PUT', `/api/books/${book.id}`, {
        json: { title: 'Proxied', summary: 'Through nginx.', is_published: true },
      });
      const image = multipart('image', await makeImage('png'), 'cover.png', 'image/png');
      await write('upload a cover', 'POST', `/api/books/${book.id}/cover`, {
        body: image.payload,
        headers: image.headers,
      });
      const chapter = (
        await write('add a chapter', 'POST', `/api/books/${book.id}/chapters`, {
          json: { title: 'One' },
        })
      ).json();
      const saved = await write('autosave', 'PUT', `/api/books/${book.id}/chapters/${chapter.id}`, {
        json: { content: '<p>Saved through nginx.</p>', version: chapter.version },
      });
      expect(saved.json().content).toBe('<p>Saved through nginx.</p>');
      await write('follow', 'POST', '/api/follows', { json: { author_id: otherId } });
      await write('unfollow', 'DELETE', '/api/follows', { json: { author_id: otherId } });
      await write('socket ticket', 'POST', '/api/socket-tickets');
      await write('delete the chapter', 'DELETE', `/api/chapters/${chapter.id}`);
      await write('delete the book', 'DELETE', `/api/books/${book.id}`);
      expect((await author.send('GET', '/token')).json().access_token).toBeTruthy();
      await write('log out', 'DELETE', '/token');
      expect(statuses).toEqual({
        'create a book': 201,
        'publish it': 200,
        'upload a cover': 200,
        'add a chapter': 201,
        autosave: 200,
        follow: 201,
        unfollow: 200,
        'socket ticket': 201,
        'delete the chapter': 200,
        'delete the book': 200,
        'log out': 200,
      });
      // Logged out for real: the session is over on both processes.
      expect(author.cookie).toBe('');
      author.cookie = `fastapi_token=${signedUp.json().access_token}`;
      for (let i = 0; i < 2; i++) {
        expect((await author.send('GET', '/token')).json().access_token).toBeNull();
      }
    });

    it('counts a client by the address nginx saw, whatever X-Forwarded-For it forges', async () => {
      // RATE_LIMIT_LOGIN is 4 a minute per address, counted in Redis across both processes.
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await fetch(`${nginx.http}/token`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-forwarded-for': `203.0.113.${i}`,
          },
          body: JSON.stringify({ username: unique('nobody'), password: 'wrong password here' }),
        });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 429]);
    });

    it('takes an upload as large as Inkwell does, so a larger one hears Inkwell’s own 413', async () => {
      const user = await signupViaNginx(unique('importer'));
      const file = multipart(
        'file',
        Buffer.alloc(IMPORT_MAX_BYTES + 1, 'a'),
        'huge.txt',
        'text/plain',
      );
      const res = await fetch(`${nginx.http}/api/imports`, {
        method: 'POST',
        headers: { ...file.headers, authorization: `Bearer ${user.token}` },
        body: file.payload as Uint8Array<ArrayBuffer>,
      });
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({ code: 'payload_too_large' });
    });

    it('adds a process with a line and a reload, and takes it out again without a failed request', async () => {
      const third = await startServer(backendEnv());
      const three = [...processes, third].map(upstream);
      await nginx.reload(three);
      const seen: string[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await getOnce(`${nginx.http}/healthz`);
        expect(res.status).toBe(200);
        seen.push(res.upstream);
      }
      expect(seen.slice(0, 3).sort()).toEqual([...three].sort());
      expect(seen.slice(3)).toEqual(seen.slice(0, 3));

      // Taking it out: the line goes and nginx reloads, then the process stops (SIGTERM), while
      // requests keep coming.
      let stop = false;
      const failures: number[] = [];
      let answered = 0;
      const load = (async () => {
        while (!stop) {
          const { status } = await getOnce(`${nginx.http}/api/genres`);
          if (status !== 200) failures.push(status);
          answered++;
        }
      })();
      await new Promise((resolve) => setTimeout(resolve, 300));
      await nginx.reload(processes.map(upstream));
      expect(await third.stop('SIGTERM')).toEqual({ code: 0, signal: null });
      await new Promise((resolve) => setTimeout(resolve, 300));
      stop = true;
      await load;
      expect(answered).toBeGreaterThan(10);
      expect(failures).toEqual([]);
    });

    twoProcessScenarios(
      () => front,
      () => database.url,
    );
  },
);

async function signupViaNginx(username: string): Promise<{ id: number; token: string }> {
  const res = await fetch(`${nginx.http}/api/authors`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: PASSWORD }),
  });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { account: { id: number }; access_token: string };
  return { id: body.account.id, token: body.access_token };
}

/**
 * Issue 22 §4's report: behind a proxy that rewrites Host, logout answered 403 "Cross-site request
 * refused", the check comparing Origin with the rewritten Host. Each row is a proxy (the shipped
 * file, edited as that proxy differs) in front of an Inkwell with the settings named, and a
 * browser at nginx's address logging out with its session cookie.
 */
describe.runIf(process.env.TEST_DB === 'postgres')(
  'logout behind proxies that rewrite Host',
  () => {
    let db: TestDatabase;
    const apps: TestApp[] = [];
    afterAll(async () => {
      await stopAllNginx();
      for (const app of apps) await app.close();
      await db?.drop();
    });

    const NGINX_DEFAULTS: ConfigEdit[] = [
      ...PROXY_VARIANTS.rewritesHost,
      ...PROXY_VARIANTS.noForwardedHost,
    ];
    const cases: Array<{
      proxy: string;
      edits: ConfigEdit[];
      env: (port: number) => Record<string, string>;
      status: number;
    }> = [
      {
        proxy: 'the shipped file',
        edits: [],
        env: () => ({ TRUST_PROXY: 'loopback' }),
        status: 200,
      },
      // Host is the browser's: nothing to believe, nothing to trust.
      {
        proxy: 'the shipped file',
        edits: [],
        env: () => ({}),
        status: 200,
      },
      {
        proxy: 'Host rewritten, X-Forwarded-Host and -Proto sent',
        edits: PROXY_VARIANTS.rewritesHost,
        env: () => ({ TRUST_PROXY: 'loopback' }),
        status: 200,
      },
      // Forwarded headers from a proxy TRUST_PROXY does not name are not believed.
      {
        proxy: 'Host rewritten, X-Forwarded-Host and -Proto sent',
        edits: PROXY_VARIANTS.rewritesHost,
        env: () => ({}),
        status: 403,
      },
      // The report: nginx's defaults rewrite Host and forward nothing; Inkwell cannot know the
      // site's address from the request...
      {
        proxy: "nginx's defaults: Host rewritten, no X-Forwarded-Host",
        edits: NGINX_DEFAULTS,
        env: () => ({ TRUST_PROXY: 'loopback' }),
        status: 403,
      },
      // ...unless PUBLIC_URL says it.
      {
        proxy: "nginx's defaults: Host rewritten, no X-Forwarded-Host",
        edits: NGINX_DEFAULTS,
        env: (port) => ({ TRUST_PROXY: 'loopback', PUBLIC_URL: `http://127.0.0.1:${port}` }),
        status: 200,
      },
      // X-Forwarded-Host $host drops the port the browser used: another origin.
      {
        proxy: 'Host rewritten, X-Forwarded-Host $host',
        edits: [...PROXY_VARIANTS.rewritesHost, ...PROXY_VARIANTS.forwardedHostWithoutPort],
        env: () => ({ TRUST_PROXY: 'loopback' }),
        status: 403,
      },
    ];

    const rows = cases.map((row) => ({
      ...row,
      settings:
        Object.entries(row.env(0))
          .map(([name, value]) => (name === 'PUBLIC_URL' ? name : `${name}=${value}`))
          .join(' and ') || 'no TRUST_PROXY',
    }));
    it.each(rows)('$proxy, $settings: logout answers $status', async ({ edits, env, status }) => {
      db ??= await createTestDatabase('postgres');
      const port = await freePort();
      const t = await createTestApp(env(port), { database: db });
      apps.push(t);
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const backend = `127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      const proxy = await startNginx({ upstreams: [backend], port, edits });
      try {
        // Signed up by a client that sends no Origin (so it passes on every row); the browser
        // then holds the session cookie.
        const signedUp = await fetch(`${proxy.http}/api/authors`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: unique('leaving'), password: PASSWORD }),
        });
        expect(signedUp.status).toBe(201);
        const person = browser(proxy.http, proxy.http);
        person.cookie = signedUp.headers.get('set-cookie')!.split(';')[0]!;

        const logout = await person.send('DELETE', '/token');
        expect(logout.status).toBe(status);
        if (status === 403) {
          expect(logout.json().detail).toBe('Cross-site request refused');
          // Refused: still signed in.
          expect((await person.send('GET', '/token')).json().access_token).toBeTruthy();
        } else {
          expect(person.cookie).toBe('');
          person.cookie = signedUp.headers.get('set-cookie')!.split(';')[0]!;
          expect((await person.send('GET', '/token')).json().access_token).toBeNull();
        }
      } finally {
        await proxy.stop();
      }
    });
  },
);
