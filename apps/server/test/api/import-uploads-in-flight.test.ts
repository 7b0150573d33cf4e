import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { IMPORT_MAX_ACTIVE_PER_USER } from '@inkwell/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, signup, type TestApp, type TestUser } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { dropRedisKeys } from '../helpers/live.ts';

// Issue 24 #14: the per-user import limit counted jobs only, so uploads still arriving (each
// buffering up to 20 MB) were not counted: a user could send many at once.
let t: TestApp;
let user: TestUser;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  user = await signup(t.app);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

/** Starts an import upload and keeps it arriving: headers and the start of the file only. */
function slowUpload(to: { port: number; user: TestUser } = { port, user }): {
  answer: Promise<number>;
  abort(): void;
} {
  const boundary = 'slowboundary';
  const request = http.request({
    host: '127.0.0.1',
    port: to.port,
    method: 'POST',
    path: '/api/imports',
    headers: {
      authorization: `Bearer ${to.user.token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(10 * 1024 * 1024),
    },
  });
  const answer = new Promise<number>((resolve) => {
    request.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    request.on('error', () => resolve(0));
  });
  request.write(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nOnce upon a time`,
  );
  return { answer, abort: () => request.destroy() };
}

it('counts uploads still arriving against the per-user limit, before reading another', async () => {
  const held = Array.from({ length: IMPORT_MAX_ACTIVE_PER_USER }, () => slowUpload());
  // Let the server start on each of them.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const extra = slowUpload();
  expect(await extra.answer).toBe(429);
  for (const upload of held) upload.abort();
  extra.abort();
  // Once they are gone the user may import again.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/imports',
    headers: {
      authorization: `Bearer ${user.token}`,
      'content-type': 'multipart/form-data; boundary=b',
    },
    payload:
      '--b\r\nContent-Disposition: form-data; name="file"; filename="story.txt"\r\nContent-Type: text/plain\r\n\r\nChapter 1\n\nOnce upon a time there was a test.\r\n--b--\r\n',
  });
  expect(res.statusCode).toBe(202);
});

it('counts the uploads arriving at other processes too, through the shared limit store', async () => {
  const database = await createTestDatabase();
  const prefix = `inkwell-imports-${crypto.randomBytes(6).toString('hex')}`;
  const servers: TestApp[] = [];
  try {
    for (let i = 0; i < 2; i++) {
      const env = { REDIS_URL: 'redis://127.0.0.1:6379', REDIS_PREFIX: prefix };
      const server = await createTestApp(env, { database });
      await server.app.listen({ port: 0, host: '127.0.0.1' });
      servers.push(server);
    }
    const someone = await signup(servers[0]!.app);
    const at = (i: number) => ({
      port: (servers[i]!.app.server.address() as AddressInfo).port,
      user: someone,
    });
    // Spread over both processes, as a load balancer would: each sees fewer than the limit.
    const held = Array.from({ length: IMPORT_MAX_ACTIVE_PER_USER }, (_, i) =>
      slowUpload(at(i % 2)),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const extra = [slowUpload(at(0)), slowUpload(at(1))];
    expect(await Promise.all(extra.map((upload) => upload.answer))).toEqual([429, 429]);
    for (const upload of [...held, ...extra]) upload.abort();
  } finally {
    for (const server of servers) await server.close();
    await dropRedisKeys(prefix);
    await database.drop();
  }
});
