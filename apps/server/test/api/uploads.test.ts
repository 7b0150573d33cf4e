import crypto from 'node:crypto';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  createBook,
  createTestApp,
  signup,
  type TestApp,
  type TestUser,
} from '../helpers/app.ts';
import { makeImage, multipart } from '../helpers/images.ts';

let t: TestApp;
let owner: TestUser;
let other: TestUser;
let bookId: number;
beforeAll(async () => {
  t = await createTestApp();
  owner = await signup(t.app);
  other = await signup(t.app);
  bookId = (await createBook(t.app, owner, 'Cover Story', { published: true })).id;
});
afterAll(() => t.close());

const AVATAR = '/api/authors/avatar';
const cover = () => `/api/books/${bookId}/cover`;

function upload(
  url: string,
  user: TestUser | null,
  file: Buffer,
  filename = 'image.png',
  contentType = 'image/png',
) {
  const body = multipart('image', file, filename, contentType);
  return t.app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...body.headers, ...(user ? { authorization: `Bearer ${user.token}` } : {}) },
  });
}

/** Fetches an uploaded file the way a browser would, and reads what it really is. */
async function served(href: string) {
  const res = await t.app.inject({ method: 'GET', url: href });
  expect(res.statusCode).toBe(200);
  return { res, bytes: res.rawPayload, metadata: await sharp(res.rawPayload).metadata() };
}

/** A tiny valid PNG whose header claims `width` x `height` pixels (CRC fixed so only the size is wrong). */
async function pngClaiming(width: number, height: number) {
  const png = Buffer.from(await makeImage('png', 1, 1));
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(zlib.crc32(png.subarray(12, 29)), 29);
  return png;
}

describe('avatar upload', () => {
  it('answers 401 without a session', async () => {
    const res = await upload(AVATAR, null, await makeImage('png'));
    expect(res.statusCode).toBe(401);
  });

  it.each([
    ['png', 'image/png', 'avatar.png'],
    ['jpeg', 'image/jpeg', 'avatar.jpg'],
  ] as const)(
    'accepts a real %s, stores it on the profile and serves it for a long time',
    async (format, type, name) => {
      const input = await makeImage(format, 80, 60);
      const res = await upload(AVATAR, owner, input, name, type);
      expect(res.statusCode).toBe(200);
      const { href } = res.json();
      expect(res.json()).toEqual({
        href: expect.stringMatching(/^\/uploads\/[0-9a-f]{32}\.(png|jpg)$/),
      });

      const file = await served(href);
      expect(file.res.headers['cache-control']).toMatch(/max-age=31536000/);
      expect(file.res.headers['cache-control']).toMatch(/immutable/);
      expect(file.res.headers['content-type']).toMatch(/^image\/(png|jpeg)/);
      expect(['png', 'jpeg']).toContain(file.metadata.format);
      expect(file.bytes.equals(input)).toBe(false);

      expect((await as(t.app).get(`/api/authors/${owner.id}`)).json().avatar).toBe(href);
      expect((await as(t.app).get(`/api/authors/${other.id}`)).json().avatar).toBeNull();
    },
  );

  it('keeps transparency as PNG and re-encodes everything else as JPEG', async () => {
    const transparent = await upload(
      AVATAR,
      owner,
      await makeImage('png', 40, 40, { alpha: true }),
    );
    expect(transparent.json().href).toMatch(/\.png$/);
    expect((await served(transparent.json().href)).metadata.hasAlpha).toBe(true);
    const opaque = await upload(AVATAR, owner, await makeImage('png', 40, 40));
    expect(opaque.json().href).toMatch(/\.jpg$/);
  });

  it('shrinks a large avatar to at most 512x512', async () => {
    const res = await upload(
      AVATAR,
      owner,
      await makeImage('jpeg', 1600, 1200),
      'big.jpg',
      'image/jpeg',
    );
    expect(res.statusCode).toBe(200);
    const { metadata } = await served(res.json().href);
    expect(metadata.width).toBeLessThanOrEqual(512);
    expect(metadata.height).toBeLessThanOrEqual(512);
  });

  it('strips metadata (EXIF) from the stored file', async () => {
    const tagged = await sharp(await makeImage('jpeg', 300, 200))
      .withExif({ IFD0: { Copyright: 'Secret Owner', Artist: 'Secret Artist' } })
      .jpeg()
      .toBuffer();
    expect((await sharp(tagged).metadata()).exif).toBeDefined();
    expect(tagged.includes('Secret Owner')).toBe(true);

    const res = await upload(AVATAR, owner, tagged, 'tagged.jpg', 'image/jpeg');
    expect(res.statusCode).toBe(200);
    const file = await served(res.json().href);
    expect(file.metadata.exif).toBeUndefined();
    expect(file.metadata.xmp).toBeUndefined();
    expect(file.bytes.includes('Secret')).toBe(false);
  });
});

describe('cover upload', () => {
  it('lets only the owner upload: 401 anonymous, 403 another user, 200 owner', async () => {
    const image = await makeImage('jpeg', 1200, 2000);
    expect((await upload(cover(), null, image)).statusCode).toBe(401);
    const byOther = await upload(cover(), other, image);
    expect(byOther.statusCode).toBe(403);
    expect(byOther.json().code).toBe('forbidden');
    expect((await as(t.app).get(`/api/books/${bookId}`)).json().cover).toBeNull();

    const res = await upload(cover(), owner, image, 'cover.jpg', 'image/jpeg');
    expect(res.statusCode).toBe(200);
    const { href } = res.json();
    expect((await as(t.app).get(`/api/books/${bookId}`)).json().cover).toBe(href);

    const file = await served(href);
    expect(file.res.headers['cache-control']).toMatch(/max-age=31536000/);
    expect(file.metadata.width).toBeLessThanOrEqual(600);
    expect(file.metadata.height).toBeLessThanOrEqual(900);
    // Covers keep their shape: 1200x2000 fits inside 600x900 as 540x900.
    expect([file.metadata.width, file.metadata.height]).toEqual([540, 900]);
  });

  it("answers 404 for another author's draft and for an unknown book", async () => {
    const draft = await createBook(t.app, owner, 'Unseen Draft');
    expect(
      (await upload(`/api/books/${draft.id}/cover`, other, await makeImage('png'))).statusCode,
    ).toBe(404);
    expect(
      (await upload('/api/books/999999/cover', owner, await makeImage('png'))).statusCode,
    ).toBe(404);
  });
});

describe('refused uploads', () => {
  const svgWithScript = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
  );
  const unsupported: Array<[string, () => Promise<Buffer>]> = [
    [
      'a GIF renamed .png',
      () =>
        sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
          .gif()
          .toBuffer(),
    ],
    ['a text file renamed .png', async () => Buffer.from('just some text, not an image at all\n')],
    ['an SVG with a script renamed .png', async () => svgWithScript],
    [
      'a WebP renamed .png',
      () =>
        sharp({ create: { width: 8, height: 8, channels: 3, background: '#0f0' } })
          .webp()
          .toBuffer(),
    ],
  ];

  describe.each([
    ['avatar', () => AVATAR],
    ['cover', cover],
  ])('%s', (_kind, url) => {
    it.each(unsupported)('refuses %s with 400 and a clear message', async (_name, make) => {
      const res = await upload(url(), owner, await make(), 'innocent.png', 'image/png');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        detail: 'The image must be a PNG or JPEG file',
        code: 'validation',
        field: 'image',
      });
    });

    it('refuses a truncated JPEG with 400', async () => {
      const noise = crypto.randomBytes(300 * 200 * 3);
      const jpeg = await sharp(noise, { raw: { width: 300, height: 200, channels: 3 } })
        .jpeg()
        .toBuffer();
      const res = await upload(
        url(),
        owner,
        jpeg.subarray(0, Math.floor(jpeg.length / 2)),
        'cut.jpg',
        'image/jpeg',
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toMatch(/damaged or truncated/);
    });

    it('refuses a file over 5 MB with 413', async () => {
      const huge = Buffer.concat([await makeImage('png'), crypto.randomBytes(6 * 1024 * 1024)]);
      const res = await upload(url(), owner, huge);
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({
        detail: 'The file is too large: at most 5 MB',
        code: 'payload_too_large',
      });
    });

    it('refuses a PNG declaring 50000x50000 pixels with 400, and keeps serving', async () => {
      const res = await upload(url(), owner, await pngClaiming(50_000, 50_000));
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toMatch(/too large in pixels/);
      expect((await as(t.app).get('/api/authors')).statusCode).toBe(200);
      expect((await upload(url(), owner, await makeImage('png'))).statusCode).toBe(200);
    });

    it('refuses a request without the multipart field "image" with 400', async () => {
      const wrongField = multipart('picture', await makeImage('png'), 'a.png', 'image/png');
      const res = await t.app.inject({
        method: 'POST',
        url: url(),
        payload: wrongField.payload,
        headers: { ...wrongField.headers, authorization: `Bearer ${owner.token}` },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toMatch(/"image"/);
      const notMultipart = await as(t.app, owner).post(url(), {
        image: 'data:image/png;base64,AAAA',
      });
      expect(notMultipart.statusCode).toBe(400);
    });
  });

  it('leaves the stored avatar and cover untouched after a refused upload', async () => {
    const avatar = (await upload(AVATAR, owner, await makeImage('png', 30, 30))).json().href;
    const coverHref = (await upload(cover(), owner, await makeImage('png', 30, 30))).json().href;
    await upload(AVATAR, owner, svgWithScript);
    await upload(cover(), owner, Buffer.from('nope'));
    expect((await as(t.app).get(`/api/authors/${owner.id}`)).json().avatar).toBe(avatar);
    expect((await as(t.app).get(`/api/books/${bookId}`)).json().cover).toBe(coverHref);
  });
});
