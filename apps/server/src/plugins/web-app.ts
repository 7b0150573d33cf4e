import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Policy for HTML pages: no inline or third-party scripts, so injected markup cannot run.
 * Inline style attributes stay allowed because React and TipTap set them.
 */
export const WEB_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self' ws: wss:",
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
 * Serves the built React app under BASE_PATH with a fallback to index.html for client routes.
 * Unknown /api paths get the JSON 404 of the error contract, never the app.
 */
async function webAppPlugin(app: FastifyInstance, opts: { base: string; distDir: string }) {
  const indexFile = path.join(opts.distDir, 'index.html');
  const hasBuild = fs.existsSync(indexFile);
  const apiPrefix = `${opts.base}/api/`;

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

  const sendPage = (reply: FastifyReply) => {
    reply.header('content-security-policy', WEB_CSP).header('cache-control', 'no-cache');
    return hasBuild
      ? reply.type('text/html').sendFile('index.html', opts.distDir)
      : reply.type('text/html').send(PLACEHOLDER_PAGE);
  };

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const url = request.url.split('?')[0] ?? '';
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !url.startsWith(apiPrefix) &&
      (url === opts.base || url.startsWith(`${opts.base}/`) || opts.base === '');
    if (wantsPage) return sendPage(reply);
    return reply.status(404).send({ detail: 'Not found', code: 'not_found' });
  });
}

export const webApp = fp(webAppPlugin, { name: 'inkwell-web-app' });
