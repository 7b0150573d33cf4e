import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import {
  uploadNameFor,
  uploadNameOfHref,
  type UploadExtension,
} from '../../src/lib/upload-store.ts';
import { ZipArchive } from '../../src/modules/imports/parsers/zip.ts';
import {
  as,
  createBook,
  createTestApp,
  signup,
  type TestApp,
  type TestUser,
} from '../helpers/app.ts';
import { makeImage, multipart } from '../helpers/images.ts';

/**
 * How uploads are served, the same from either store (UPLOAD_STORE): the bytes saved, a year of
 * caching, a strong ETag and 304, 404 for anything else; and, with the database store, from
 * every process of the site (issue 22 §1).
 */
const AVATAR = '/api/authors/avatar';
const cover = (bookId: number) => `/api/books/${bookId}/cover`;
const FOREVER = 'public, max-age=31536000, immutable';

async function upload(t: TestApp, url: string, user: TestUser, file: Buffer) {
  const body = multipart('image', file, 'image.png', 'image/png');
  const res = await t.app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...body.headers, authorization: `Bearer ${user.token}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().href as string;
}

const get = (t: TestApp, url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });

/** The content hash an href's name carries, and so the strong ETag it is served with. */
const etagOf = (href: string) => `"${uploadNameOfHref(href).slice(0, 32)}"`;

/** Served bytes are the ones saved: they hash to the name they are served under. */
function expectServedAsNamed(href: string, bytes: Buffer) {
  const name = uploadNameOfHref(href);
  expect(uploadNameFor(bytes, name.split('.')[1] as UploadExtension)).toBe(name);
}

describe('UPLOAD_STORE', () => {
  it('is the folder unless set, database when asked, and nothing else', () => {
    expect(loadConfig({}).UPLOAD_STORE).toBe('folder');
    expect(loadConfig({ UPLOAD_STORE: 'database' }).UPLOAD_STORE).toBe('database');
    for (const value of ['s3', 'Database', ''])
      expect(() => loadConfig({ UPLOAD_STORE: value }), value).toThrow(
        /UPLOAD_STORE: give folder or database/,
      );
  });
});

describe.each(['folder', 'database'] as const)('uploads in the %s store', (store) => {
  let t: TestApp;
  let owner: TestUser;
  let bookId: number;
  beforeAll(async () => {
    t = await createTestApp({ UPLOAD_STORE: store });
    owner = await signup(t.app);
    bookId = (await createBook(t.app, owner, 'Served Cover', { published: true })).id;
  });
  afterAll(() => t.close());
  afterEach(() => vi.restoreAllMocks());

  it('serves a cover and an avatar: their bytes, type, a strong ETag and a year of caching', async () => {
    const avatar = await upload(t, AVATAR, owner, await makeImage('png', 40, 40, { alpha: true }));
    const coverHref = await upload(t, cover(bookId), owner, await makeImage('jpeg', 300, 450));
    expect(avatar).toMatch(/^\/uploads\/[0-9a-f]{32}\.png$/);
    expect(coverHref).toMatch(/^\/uploads\/[0-9a-f]{32}\.jpg$/);
    expect((await as(t.app).get(`/api/authors/${owner.id}`)).json().avatar).toBe(avatar);
    expect((await as(t.app).get(`/api/books/${bookId}`)).json().cover).toBe(coverHref);

    for (const [href, type] of [
      [avatar, 'image/png'],
      [coverHref, 'image/jpeg'],
    ] as const) {
      const res = await get(t, href);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe(type);
      expect(res.headers['cache-control']).toBe(FOREVER);
      expect(res.headers.etag).toBe(etagOf(href));
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
      expectServedAsNamed(href, res.rawPayload);
    }
    // A signed-in reader's browser asks with its cookie or token: the same long-lived answer.
    const signedIn = await t.app.inject({
      method: 'GET',
      url: avatar,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(signedIn.headers['cache-control']).toBe(FOREVER);
  });

  it('answers a revalidation with 304 and no body, without reading the upload', async () => {
    const href = await upload(t, AVATAR, owner, await makeImage('png', 33, 33));
    const reads = vi.spyOn(t.ctx.uploads, 'read');
    for (const held of [etagOf(href), `W/${etagOf(href)}`, `"other", ${etagOf(href)}`]) {
      const res = await get(t, href, { 'if-none-match': held });
      expect(res.statusCode, held).toBe(304);
      expect(res.rawPayload.length).toBe(0);
      expect(res.headers.etag).toBe(etagOf(href));
      expect(res.headers['cache-control']).toBe(FOREVER);
    }
    expect(reads).not.toHaveBeenCalled();

    const changed = await get(t, href, { 'if-none-match': '"0123456789abcdef0123456789abcdef"' });
    expect(changed.statusCode).toBe(200);
    expectServedAsNamed(href, changed.rawPayload);
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('answers HEAD with the headers of the image and no body', async () => {
    const href = await upload(t, AVATAR, owner, await makeImage('jpeg', 20, 20));
    const res = await t.app.inject({ method: 'HEAD', url: href });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers.etag).toBe(etagOf(href));
    expect(res.rawPayload.length).toBe(0);
  });

  it('answers 404, never kept, for an unknown upload and for any name a store never makes', async () => {
    const known = uploadNameOfHref(await upload(t, AVATAR, owner, await makeImage('png', 21, 21)));
    const hash = known.slice(0, 32);
    // A file in the folder that is no upload is not served either (folder store).
    fs.writeFileSync(path.join(t.config.UPLOAD_DIR, 'notes.txt'), 'private notes');
    fs.writeFileSync(path.join(t.config.UPLOAD_DIR, `${known}.1.tmp`), 'half written');
    for (const url of [
      `/uploads/${'0'.repeat(32)}.png`,
      `/uploads/${hash}.gif`,
      `/uploads/${hash.toUpperCase()}.png`,
      `/uploads/${hash.slice(1)}.png`,
      `/uploads/${known}.1.tmp`,
      '/uploads/notes.txt',
      '/uploads/..%2f..%2fpackage.json',
      '/uploads/%2e%2e%2fpackage.json',
      `/uploads/..%2f${known}`,
      '/uploads/',
      `/uploads/x/${known}`,
    ]) {
      const res = await get(t, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().code, url).toBe('not_found');
      expect(res.headers['cache-control'] ?? '', url).not.toMatch(/max-age/);
      expect(res.headers.etag, url).toBeUndefined();
    }
    // An upload not (yet) there says so to shared caches too: a CDN must not keep that 404.
    const missing = await get(t, `/uploads/${'0'.repeat(32)}.png`);
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
    // Text no route takes (a NUL) is refused before any lookup, as on every route.
    const nul = await get(t, `/uploads/${known}%00.png`);
    expect(nul.statusCode).toBe(400);
    expect(nul.headers.etag).toBeUndefined();
  });

  it('keeps the same bytes once, under one name', async () => {
    const image = await makeImage('png', 44, 44, { alpha: true });
    const first = await upload(t, AVATAR, owner, image);
    const second = await upload(t, cover(bookId), owner, image);
    expect(second).toBe(first);
    if (store === 'database') {
      const rows = await t.ctx.db
        .selectFrom('uploads')
        .select(['content_type', 'size'])
        .where('name', '=', uploadNameOfHref(first))
        .execute();
      expect(rows).toEqual([{ content_type: 'image/png', size: expect.any(Number) }]);
      expect(rows[0]!.size).toBe((await get(t, first)).rawPayload.length);
    } else {
      expect(fs.readdirSync(t.config.UPLOAD_DIR)).toContain(uploadNameOfHref(first));
    }
  });

  it("puts the stored cover in the book's EPUB", async () => {
    const coverHref = await upload(t, cover(bookId), owner, await makeImage('jpeg', 120, 180));
    const res = await as(t.app, owner).get(`/api/books/${bookId}/export.epub`);
    expect(res.statusCode).toBe(200);
    const zip = await ZipArchive.open(res.rawPayload);
    const stored = (await get(t, coverHref)).rawPayload;
    expect((await zip.read('OEBPS/images/cover.jpg')).equals(stored)).toBe(true);
  });
});

describe('several processes on one database', () => {
  // Each test app has an upload folder of its own: two processes on two machines.
  const apps: TestApp[] = [];
  afterEach(async () => {
    for (const app of apps.reverse()) await app.close();
    apps.length = 0;
  });

  async function twoProcesses(env: Record<string, string>) {
    const first = await createTestApp(env);
    apps.push(first);
    const second = await createTestApp(env, { database: first.database });
    apps.push(second);
    return [first, second] as const;
  }

  it('with UPLOAD_STORE=database, each serves what the other saved', async () => {
    const [first, second] = await twoProcesses({ UPLOAD_STORE: 'database' });
    const owner = await signup(first.app);
    const avatar = await upload(first, AVATAR, owner, await makeImage('png', 50, 50));
    const bookId = (await createBook(second.app, owner, 'Two Processes', { published: true })).id;
    const coverHref = await upload(second, cover(bookId), owner, await makeImage('jpeg', 90, 90));

    for (const [href, server] of [
      [avatar, second],
      [coverHref, first],
    ] as const) {
      const res = await get(server, href);
      expect(res.statusCode).toBe(200);
      expect(res.headers.etag).toBe(etagOf(href));
      expectServedAsNamed(href, res.rawPayload);
      expect((await get(server, href, { 'if-none-match': etagOf(href) })).statusCode).toBe(304);
    }
    expect((await as(second.app).get(`/api/authors/${owner.id}`)).json().avatar).toBe(avatar);
  });

  it('with the folder store, a process cannot serve what another saved in its own folder', async () => {
    const [first, second] = await twoProcesses({ UPLOAD_STORE: 'folder' });
    const owner = await signup(first.app);
    const avatar = await upload(first, AVATAR, owner, await makeImage('png', 51, 51));
    expect((await get(first, avatar)).statusCode).toBe(200);
    expect((await get(second, avatar)).statusCode).toBe(404);
  });
});
