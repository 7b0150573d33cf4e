import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { SESSION_COOKIE } from './auth.ts';
import { PAGE_PRELOADS_FILE, pagePreloadsFrom, type PagePreloads } from './page-preloads.ts';

/**
 * Policy for HTML pages: no inline or third-party scripts, so injected markup cannot run.
 * Inline style attributes stay allowed because React and TipTap set them.
 */
export const WEB_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

const PLACEHOLDER_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Inkwell</title></head>
<body><h1>Inkwell</h1><p>The API is running. The web app has not been built yet
(<code>npm run build</code>). API reference: <a href="api/docs">api/docs</a>.</p></body></html>`;

/**
 * index.html and the build's page preloads, read once: like the static asset routes (registered
 * at start, `wildcard: false`), a new build is served after a restart.
 */
function readPageTemplate(distDir: string): { html: string; preloads: PagePreloads } {
  const html = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const preloadsFile = path.join(distDir, PAGE_PRELOADS_FILE);
  // A build made before page preloads existed has no such file: its pages go without.
  const preloads = fs.existsSync(preloadsFile)
    ? pagePreloadsFrom(fs.readFileSync(preloadsFile, 'utf8'))
    : () => '';
  return { html, preloads };
}

/**
 * Told to a page requested without a session cookie: the app then starts signed out instead of
 * asking GET /token first (apps/web/src/lib/session.tsx reads it). With a cookie, the app asks.
 */
export const NO_SESSION_META = '<meta name="inkwell-session" content="none">';

/**
 * index.html with extra head elements placed before its first script, i.e. before anything that
 * holds up the parser, so the browser sees them at once.
 */
function withHead(html: string, elements: string[]): string {
  const head = html.indexOf('</head>');
  const script = html.indexOf('<script');
  const at = script !== -1 && script < head ? script : head;
  if (at === -1 || elements.length === 0) return html;
  return `${html.slice(0, at)}${elements.join('\n    ')}\n    ${html.slice(at)}`;
}

/**
 * Paths below the base that are files or API calls, never client routes: a missing one is a 404
 * (JSON, as every error), never the app's page with a 200. A missing upload answered with HTML
 * would show as a broken image and be cached as if it existed; a missing asset (a chunk of an
 * older build) must fail to load, so the app can tell and reload.
 */
const NOT_PAGE_PREFIXES = ['/api/', '/uploads/', '/assets/'];

/**
 * Serves the built React app under BASE_PATH with a fallback to index.html for client routes.
 * Unknown /api, /uploads and /assets paths get the JSON 404 of the error contract, never the app.
 */
async function webAppPlugin(app: FastifyInstance, opts: { base: string; distDir: string }) {
  const indexFile = path.join(opts.distDir, 'index.html');
  const hasBuild = fs.existsSync(indexFile);
  const notPages = NOT_PAGE_PREFIXES.map((prefix) => `${opts.base}${prefix}`);

  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: opts.distDir,
      prefix: `${opts.base}/`,
      wildcard: false,
      // The build writes .br and .gz beside each asset; send those to clients that accept them.
      preCompressed: true,
      index: false,
      setHeaders: (res, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }

  const template = hasBuild ? readPageTemplate(opts.distDir) : undefined;
  const sendPage = (pathname: string, request: FastifyRequest, reply: FastifyReply) => {
    reply
      .header('content-security-policy', WEB_CSP)
      .header('cache-control', 'no-cache')
      // The page says whether the request carried a session cookie.
      .header('vary', 'Cookie');
    if (!template) return reply.type('text/html; charset=utf-8').send(PLACEHOLDER_PAGE);
    const elements = [template.preloads(pathname)].filter(Boolean);
    if (!request.cookies[SESSION_COOKIE]) elements.unshift(NO_SESSION_META);
    return reply.type('text/html; charset=utf-8').send(withHead(template.html, elements));
  };

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const url = request.url.split('?')[0] ?? '';
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !notPages.some((prefix) => url.startsWith(prefix)) &&
      (url === opts.base || url.startsWith(`${opts.base}/`) || opts.base === '');
    if (wantsPage) return sendPage(url, request, reply);
    return reply.status(404).send({ detail: 'Not found', code: 'not_found' });
  });
}

export const webApp = fp(webAppPlugin, { name: 'inkwell-web-app' });
