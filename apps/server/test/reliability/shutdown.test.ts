import crypto from 'node:crypto';
import http from 'node:http';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testEngine, type TestDatabase } from '../helpers/database.ts';
import { multipart } from '../helpers/images.ts';
import { closeAllSockets, connect } from '../helpers/ws.ts';
import { startServer, stopAllServers, type ServerProcess } from './helpers/process.ts';
import { call, signupOver } from './helpers/workload.ts';

let database: TestDatabase | undefined;
afterAll(async () => {
  await closeAllSockets();
  await stopAllServers();
  await database?.drop();
});

/** An upload whose body the test sends in two halves, so the request is in flight for as long as it likes. */
function startUpload(
  server: ServerProcess,
  token: string,
  form: { payload: Buffer; headers: Record<string, string> },
) {
  // Keep-alive on purpose: the server must not wait for an idle client connection to go away.
  const agent = new http.Agent({ keepAlive: true });
  const request = http.request(`${server.http}/api/authors/avatar`, {
    method: 'POST',
    agent,
    headers: {
      ...form.headers,
      authorization: `Bearer ${token}`,
      'content-length': String(form.payload.length),
    },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.once('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    request.once('error', reject);
  });
  const half = Math.floor(form.payload.length / 2);
  request.write(form.payload.subarray(0, half));
  return {
    answer,
    finish: () => request.end(form.payload.subarray(half)),
  };
}

describe(`SIGTERM (${testEngine()})`, () => {
  it('refuses new work, finishes the request in flight, closes sockets with 1001 and exits 0 within 10 s', async () => {
    database = await createTestDatabase();
    // info: this test also reads the request log.
    const server = await startServer({ DATABASE_URL: database.url, LOG_LEVEL: 'info' });
    const user = await signupOver(server.http, `leaver_${crypto.randomBytes(3).toString('hex')}`);
    const socket = await connect(`${server.ws}/ws?token=${user.token}`);
    const traced = await fetch(`${server.http}/api/genres`, {
      headers: { 'x-request-id': 'trace-me-1' },
    });
    expect(traced.headers.get('x-request-id')).toBe('trace-me-1');

    const noise = crypto.randomBytes(600 * 600 * 3);
    const image = await sharp(noise, { raw: { width: 600, height: 600, channels: 3 } })
      .png()
      .toBuffer();
    const upload = startUpload(
      server,
      user.token,
      multipart('image', image, 'me.png', 'image/png'),
    );
    // The server has the headers and half the body: the request is in flight.
    await new Promise((resolve) => setTimeout(resolve, 300));

    const signalled = Date.now();
    server.child.kill('SIGTERM');
    const closed = await socket.closed;
    expect(closed.code).toBe(1001);

    // New work is refused: a new connection is turned away or answered 503, never served.
    const late = await call(server.http, 'GET', '/api/books', { timeoutMs: 3_000 });
    expect([0, 503]).toContain(late.status);

    upload.finish();
    const answer = await upload.answer;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).href).toMatch(/^\/uploads\/[0-9a-f]+\.(png|jpg)$/);

    const exit = await server.exited;
    expect(exit, server.output.join('')).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalled).toBeLessThan(10_000);

    // Logs are JSON lines (pino) carrying the request id, and never the session token of a socket URL.
    const lines = server.output
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(lines.find((line) => line.reqId === 'trace-me-1' && line.req)?.req).toMatchObject({
      method: 'GET',
      url: '/api/genres',
    });
    expect(lines.find((line) => line.req?.url?.startsWith('/ws'))?.req.url).toBe(
      '/ws?token=[redacted]',
    );
    expect(server.output.join('')).not.toContain(user.token);
  });
});
