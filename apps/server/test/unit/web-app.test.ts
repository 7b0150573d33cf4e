import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../src/plugins/auth.ts';
import { PAGE_PRELOADS_FILE, pagePreloadsFrom } from '../../src/plugins/page-preloads.ts';
import { NO_SESSION_META, WEB_CSP, webApp } from '../../src/plugins/web-app.ts';

/** index.html as Vite writes it: its tags at the end of <head>, the parser-blocking script last. */
const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Inkwell</title>
    <script type="module" crossorigin src="/inkwell/assets/index-abc.js"></script>
    <link rel="stylesheet" crossorigin href="/inkwell/assets/index-abc.css">
    <script src="/inkwell/theme-init.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>
`;

/** dist/page-preloads.json as apps/web/vite/page-preloads.ts writes it for BASE_PATH=/inkwell. */
const PAGE_PRELOADS = {
  pages: [
    {
      path: '/inkwell/books/:bookId/chapters/:chapterId',
      modules: ['/inkwell/assets/reader-abc.js', '/inkwell/assets/SafeHtml-abc.js'],
      styles: [],
      fetches: [
        '/inkwell/api/chapters/:chapterId',
        '/inkwell/api/books/:bookId',
        '/inkwell/api/books/:bookId/chapters',
      ],
    },
    {
      path: '/inkwell/books/:bookId',
      modules: ['/inkwell/assets/books-abc.js'],
      styles: ['/inkwell/assets/books-abc.css'],
      fetches: ['/inkwell/api/books/:bookId', '/inkwell/api/books/:bookId/chapters'],
    },
  ],
};

function distFolder(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-web-app-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

async function appServing(distDir: string): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  await app.register(cookie);
  await app.register(webApp, { base: '/inkwell', distDir });
  await app.ready();
  return app;
}

const linksOf = (html: string) => html.match(/<link rel="(?:preload|modulepreload)"[^>]*>/g) ?? [];

describe('web app pages', () => {
  let dist: string;
  let app: FastifyInstance;
  beforeAll(async () => {
    dist = distFolder({
      'index.html': INDEX_HTML,
      [PAGE_PRELOADS_FILE]: JSON.stringify(PAGE_PRELOADS),
      'assets/index-abc.js': 'export {};',
    });
    app = await appServing(dist);
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it("starts a reader page's data and chunks from its HTML, before the first script", async () => {
    const res = await app.inject('/inkwell/books/12/chapters/345?paragraph=3');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(WEB_CSP);
    // Scripts may connect to this origin only (its own WebSockets included), nowhere else.
    expect(WEB_CSP).toMatch(/(^|; )connect-src 'self'(;|$)/);
    expect(linksOf(res.body)).toEqual([
      '<link rel="preload" as="fetch" crossorigin href="/inkwell/api/chapters/345">',
      '<link rel="preload" as="fetch" crossorigin href="/inkwell/api/books/12">',
      '<link rel="preload" as="fetch" crossorigin href="/inkwell/api/books/12/chapters">',
      '<link rel="modulepreload" crossorigin href="/inkwell/assets/reader-abc.js">',
      '<link rel="modulepreload" crossorigin href="/inkwell/assets/SafeHtml-abc.js">',
    ]);
    const firstScript = res.body.indexOf('<script');
    for (const link of linksOf(res.body)) expect(res.body.indexOf(link)).toBeLessThan(firstScript);
    // Nothing inline that could run: the CSP allows no inline script.
    expect(res.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it("preloads a book page's data, chunks and their styles; a trailing slash is the same page", async () => {
    const res = await app.inject('/inkwell/books/7/');
    expect(linksOf(res.body)).toEqual([
      '<link rel="preload" as="fetch" crossorigin href="/inkwell/api/books/7">',
      '<link rel="preload" as="fetch" crossorigin href="/inkwell/api/books/7/chapters">',
      '<link rel="modulepreload" crossorigin href="/inkwell/assets/books-abc.js">',
      '<link rel="preload" as="style" crossorigin href="/inkwell/assets/books-abc.css">',
    ]);
  });

  it('preloads nothing for other pages, or for parameters that are not ids', async () => {
    for (const url of [
      '/inkwell/',
      '/inkwell/home',
      '/inkwell/books',
      '/inkwell/books/search?q=12',
      '/inkwell/books/abc/chapters/1',
      '/inkwell/books/0',
      '/inkwell/books/007',
      '/inkwell/books/7/chapters/012',
      // Every spelling of an id but its one (issue 23 §4), as the API answers them 404.
      '/inkwell/books/0x10',
      '/inkwell/books/1e1',
      '/inkwell/books/+1',
      '/inkwell/books/1.0',
      '/inkwell/books/016',
      '/inkwell/books/%201',
      '/inkwell/books/1%20',
      '/inkwell/books/-1',
      '/inkwell/books/9007199254740993',
      '/inkwell/books/2147483648',
      '/inkwell/books/0x10/chapters/1',
      '/inkwell/books/1/chapters/1e1',
      '/inkwell/books/1/chapters/%22%3E%3Cscript%3E',
      '/inkwell/books/1/chapters/1/extra',
    ]) {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(linksOf(res.body), url).toEqual([]);
      expect(res.body, url).toContain('<div id="root"></div>');
    }
  });

  it('tells a visitor without a session cookie that there is no session to fetch', async () => {
    const visitor = await app.inject('/inkwell/books/1/chapters/2');
    expect(visitor.body).toContain(NO_SESSION_META);
    expect(visitor.headers.vary).toContain('Cookie');
    const reader = await app.inject({
      url: '/inkwell/books/1/chapters/2',
      cookies: { [SESSION_COOKIE]: 'some-token' },
    });
    expect(reader.body).not.toContain('inkwell-session');
    expect(linksOf(reader.body)).toHaveLength(5);
  });

  it('preloads the largest id there can be', async () => {
    const res = await app.inject('/inkwell/books/2147483647');
    expect(linksOf(res.body)[0]).toBe(
      '<link rel="preload" as="fetch" crossorigin href="/inkwell/api/books/2147483647">',
    );
  });

  it('keeps answering unknown API paths with the JSON 404, and assets as files', async () => {
    const api = await app.inject('/inkwell/api/nothing-here');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ detail: 'Not found', code: 'not_found' });
    const asset = await app.inject('/inkwell/assets/index-abc.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('export {};');
  });

  it('answers a missing upload or asset 404, never the page', async () => {
    for (const url of [
      '/inkwell/uploads/missing.jpg',
      '/inkwell/uploads/0123456789abcdef0123456789abcdef.png',
      '/inkwell/uploads/',
      '/inkwell/assets/reader-old.js',
    ]) {
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await app.inject({ method, url });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.headers['content-type'], url).toMatch(/^application\/json/);
      }
      expect((await app.inject(url)).json()).toEqual({ detail: 'Not found', code: 'not_found' });
    }
    // Paths that only begin like them are still pages.
    expect((await app.inject('/inkwell/uploadsx')).statusCode).toBe(200);
  });

  it('serves a build made without page preloads as it is, with the session hint', async () => {
    const older = distFolder({ 'index.html': INDEX_HTML });
    const olderApp = await appServing(older);
    try {
      const res = await olderApp.inject('/inkwell/books/1/chapters/2');
      expect(res.statusCode).toBe(200);
      expect(linksOf(res.body)).toEqual([]);
      expect(res.body.replace(`${NO_SESSION_META}\n    `, '')).toBe(INDEX_HTML);
    } finally {
      await olderApp.close();
      fs.rmSync(older, { recursive: true, force: true });
    }
  });
});

describe('pagePreloadsFrom', () => {
  it('refuses a file that is not a page list', () => {
    expect(() => pagePreloadsFrom('{"routes": []}')).toThrow(/pages/);
    expect(() => pagePreloadsFrom('not json')).toThrow();
  });

  it('escapes what it writes into an attribute', () => {
    const preloads = pagePreloadsFrom(
      JSON.stringify({
        pages: [{ path: '/p/:id', modules: ['/a"b<c>&.js'], styles: [], fetches: [] }],
      }),
    );
    expect(preloads('/p/1')).toBe(
      '<link rel="modulepreload" crossorigin href="/a&quot;b&lt;c&gt;&amp;.js">',
    );
  });
});
