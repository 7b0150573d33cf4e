import crypto from 'node:crypto';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const INLINE_SCRIPT = /<script(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script>/gi;

/**
 * The API reference page boots with one inline script of its own (no user content is ever in
 * it); the policy allows exactly that script by its hash, and no other inline script.
 */
export function referencePagePolicy(html: string): string {
  const hashes = [...html.matchAll(INLINE_SCRIPT)].map(
    (match) => `'sha256-${crypto.createHash('sha256').update(match[1]!).digest('base64')}'`,
  );
  return [
    "default-src 'self'",
    `script-src 'self' ${hashes.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
}

/** Security headers on every answer (helmet), with a Content-Security-Policy for each kind of answer. */
async function securityHeadersPlugin(app: FastifyInstance, { base }: { base: string }) {
  await app.register(helmet, {
    // The policy of every answer that does not set its own: JSON, images and uploads need no
    // script, style or frame, so nothing is allowed. The web app's HTML pages replace it with
    // theirs (plugins/web-app.ts), the API reference with the one above.
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'none'"],
      },
    },
    // Agrees with frame-ancestors 'none' for browsers that only know the older header.
    frameguard: { action: 'deny' },
    crossOriginResourcePolicy: { policy: 'same-site' },
  });

  const reference = `${base}/api/docs`;
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.url.startsWith(reference)) return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('text/html')) return payload;
    const html =
      typeof payload === 'string'
        ? payload
        : Buffer.isBuffer(payload)
          ? payload.toString('utf8')
          : '';
    reply.header('content-security-policy', referencePagePolicy(html));
    return payload;
  });
}

export const securityHeaders = fp(securityHeadersPlugin, { name: 'inkwell-security-headers' });
