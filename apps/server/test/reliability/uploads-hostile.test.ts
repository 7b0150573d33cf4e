import crypto from 'node:crypto';
import http from 'node:http';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testEngine, type TestDatabase } from '../helpers/database.ts';
import { makeImage, multipart } from '../helpers/images.ts';
import {
  memoryOf,
  resetPeakMemory,
  startServer,
  stopAllServers,
  type ServerProcess,
} from './helpers/process.ts';
import { call, signupOver } from './helpers/workload.ts';

/**
 * Hostile files against a real server process, whose memory is read from /proc: each is refused
 * with a clear 4xx, the process's peak memory stays bounded, and it keeps serving.
 * (api/uploads.test.ts covers the ordinary refusals in-process.)
 */
const MB = 1024 * 1024;
/** Peak resident memory the whole hostile series may add: far below the 50 MB file it includes. */
const PEAK_GROWTH_LIMIT_MB = 40;

let database: TestDatabase | undefined;
let server: ServerProcess;
let token: string;
beforeAll(async () => {
  database = await createTestDatabase();
  server = await startServer({ DATABASE_URL: database.url });
  token = (await signupOver(server.http, `uploader_${crypto.randomBytes(3).toString('hex')}`))
    .token;
});
afterAll(async () => {
  await stopAllServers();
  await database?.drop();
});

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON, like light-my-request's json()
  body: any;
  /** For streamed uploads: how much of the body had been sent when the answer came. */
  sentBytes?: number;
  /** For streamed uploads: the answer's Connection header. */
  connection?: string;
}

/**
 * Streams `size` bytes of multipart body (the file part: `head`, then filler) without holding it
 * in memory, and stops sending as soon as the server answers: a server that refuses early must not
 * have to read the rest. A server that closed the connection on its refusal would make this
 * client's next write fail (EPIPE, reset) before the answer is read, so such an error fails here.
 */
function streamUpload(
  url: string,
  head: Buffer,
  size: number,
  headers: Record<string, string>,
  { declareLength = true } = {},
): Promise<Answer> {
  const boundary = `----hostile${crypto.randomBytes(8).toString('hex')}`;
  const opening = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const closing = Buffer.from(`\r\n--${boundary}--\r\n`);
  const total = opening.length + size + closing.length;
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = http.request(url, {
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        ...headers,
        ...(declareLength
          ? { 'content-length': String(total) }
          : { 'transfer-encoding': 'chunked' }),
      },
    });
    request.on('response', (res) => {
      answered = true;
      const sentBytes = sent;
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => {
        // Stop the upload: the answer is in.
        request.destroy();
        resolve({
          status: res.statusCode ?? 0,
          body: text ? JSON.parse(text) : undefined,
          sentBytes,
          connection: res.headers.connection,
        });
      });
    });
    request.on('error', (error) => (answered ? undefined : reject(error)));
    const filler = Buffer.alloc(MB, 0x41);
    let sent = 0;
    const pump = () => {
      if (answered) return;
      if (sent === 0) request.write(Buffer.concat([opening, head]));
      while (!answered && sent < size) {
        const chunk = filler.subarray(0, Math.min(MB, size - sent));
        sent += chunk.length;
        if (!request.write(chunk)) {
          request.once('drain', pump);
          return;
        }
      }
      if (!answered) request.end(closing);
    };
    pump();
  });
}

async function upload(path: string, file: Buffer, name: string, type: string): Promise<Answer> {
  const form = multipart('image', file, name, type);
  const res = await fetch(`${server.http}${path}`, {
    method: 'POST',
    headers: { ...form.headers, authorization: `Bearer ${token}` },
    body: new Uint8Array(form.payload),
  });
  return { status: res.status, body: await res.json() };
}

/** A PNG whose header declares width x height, with a zlib stream of zero rows: a decompression bomb. */
function pngBomb(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  // 64 rows of zeros: 9.6 MB of pixels in a few kilobytes; the header claims 7.5 GB.
  const rows = zlib.deflateSync(Buffer.alloc((width * 3 + 1) * 64), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', rows),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe(`hostile uploads against a running server (${testEngine()})`, () => {
  it('refuses each with a clear 4xx, keeps its peak memory bounded and keeps serving', async () => {
    // Warm up: the first real image loads the image library, which is not what is measured.
    expect(
      (
        await upload(
          '/api/authors/avatar',
          await makeImage('png', 200, 200),
          'warm.png',
          'image/png',
        )
      ).status,
    ).toBe(200);
    resetPeakMemory(server.child.pid!);
    const before = memoryOf(server.child.pid!);

    const noise = crypto.randomBytes(300 * 200 * 3);
    const jpeg = await sharp(noise, { raw: { width: 300, height: 200, channels: 3 } })
      .jpeg()
      .toBuffer();
    const html = Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>');
    const cases: Array<[string, () => Promise<Answer>, number, RegExp]> = [
      [
        'a JPEG header followed by HTML',
        () =>
          upload(
            '/api/authors/avatar',
            Buffer.concat([jpeg.subarray(0, 20), html]),
            'x.jpg',
            'image/jpeg',
          ),
        400,
        /damaged|PNG or JPEG/,
      ],
      [
        'an SVG with a script',
        () =>
          upload(
            '/api/authors/avatar',
            Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
            'x.svg',
            'image/svg+xml',
          ),
        400,
        /PNG or JPEG/,
      ],
      [
        'a PNG bomb declaring 50,000 x 50,000 pixels',
        () => upload('/api/authors/avatar', pngBomb(50_000, 50_000), 'bomb.png', 'image/png'),
        400,
        /too large in pixels/,
      ],
      [
        'a truncated JPEG',
        () =>
          upload(
            '/api/authors/avatar',
            jpeg.subarray(0, Math.floor(jpeg.length / 2)),
            'cut.jpg',
            'image/jpeg',
          ),
        400,
        /damaged or truncated/,
      ],
      [
        'a 50 MB file',
        () =>
          streamUpload(`${server.http}/api/authors/avatar`, jpeg.subarray(0, 20), 50 * MB, {
            authorization: `Bearer ${token}`,
          }),
        413,
        /./,
      ],
      [
        'a 50 MB JSON body',
        () =>
          streamUpload(`${server.http}/api/books`, Buffer.alloc(0), 50 * MB, {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
          }),
        413,
        /./,
      ],
    ];
    for (const [what, send, status, detail] of cases) {
      const answer = await send();
      expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBe(status);
      // Refused on its declared length, not after reading it: the answer came before the end. (The
      // margin is wide: on a busy machine the client may push a good part before it hears back.)
      // The connection stays open, and what the client still sends is read and dropped: a close
      // with unread data would reset it, and the client could lose the answer.
      if (answer.sentBytes !== undefined) {
        expect(answer.sentBytes, `${what}: sent before the answer`).toBeLessThan(40 * MB);
        expect(answer.connection, `${what}: Connection`).toBe('keep-alive');
      }
      // Every 400 here refuses the avatar's image: it names the field (a 413 is the body's size).
      expect(answer.body, what).toEqual({
        detail: expect.stringMatching(detail),
        code: status === 413 ? 'payload_too_large' : 'validation',
        ...(status === 400 && { field: 'image' }),
      });
    }
    // The same series again, four at a time, as a client in a hurry would.
    const again = await Promise.all(cases.map(([, send]) => send()));
    expect(again.map((answer) => answer.status)).toEqual(cases.map(([, , status]) => status));

    const after = memoryOf(server.child.pid!);
    const peakGrowthMb = (after.peakKb - before.rssKb) / 1024;
    expect(peakGrowthMb, `RSS ${before.rssKb} kB, then a peak of ${after.peakKb} kB`).toBeLessThan(
      PEAK_GROWTH_LIMIT_MB,
    );

    expect((await call(server.http, 'GET', '/healthz')).status).toBe(200);
    expect((await call(server.http, 'GET', '/api/books')).status).toBe(200);
    expect(
      (
        await upload(
          '/api/authors/avatar',
          await makeImage('jpeg', 120, 90),
          'ok.jpg',
          'image/jpeg',
        )
      ).status,
    ).toBe(200);
  });

  it('cuts off an upload that does not declare its length (411), long before it ends', async () => {
    const answer = await streamUpload(
      `${server.http}/api/authors/avatar`,
      Buffer.alloc(0),
      50 * MB,
      { authorization: `Bearer ${token}` },
      { declareLength: false },
    ).catch((error: Error) => ({ status: 0, body: error.message, sentBytes: undefined }));
    // The server answers 411 and closes; a client still writing may see the close before the answer.
    if (answer.status !== 0) {
      expect(answer.status).toBe(411);
      expect(answer.body).toEqual({
        detail: 'An upload must declare its Content-Length',
        code: 'validation',
      });
    }
    expect((await call(server.http, 'GET', '/healthz')).status).toBe(200);
  });

  it('accepts a real JPEG with HTML hidden after it only as re-encoded pixels, without the HTML', async () => {
    const image = await makeImage('jpeg', 64, 64);
    const polyglot = Buffer.concat([image, Buffer.from('<html><script>alert(1)</script></html>')]);
    const answer = await upload('/api/authors/avatar', polyglot, 'poly.jpg', 'image/jpeg');
    expect(answer.status).toBe(200);
    const stored = Buffer.from(
      await (await fetch(`${server.http}${answer.body.href}`)).arrayBuffer(),
    );
    expect(stored.includes(Buffer.from('<script'))).toBe(false);
    expect(stored.includes(Buffer.from('<html'))).toBe(false);
    expect((await sharp(stored).metadata()).width).toBe(64);
  });
});
