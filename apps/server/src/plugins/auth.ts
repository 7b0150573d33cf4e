import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AppContext, Viewer } from '../context.ts';
import { AppError, unauthorized } from '../lib/errors.ts';

export const SESSION_COOKIE = 'fastapi_token';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, or null for a visitor. Resolved on every request, public ones included. */
    viewer: Viewer | null;
    /** The raw token the viewer was identified by. */
    sessionToken: string | null;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function tokenFrom(request: FastifyRequest): { token: string; via: 'bearer' | 'cookie' } | null {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) {
    const token = header.slice('Bearer '.length).trim();
    if (token) return { token, via: 'bearer' };
  }
  const cookie = request.cookies[SESSION_COOKIE]?.replace(/^Bearer\s+/i, '').trim();
  return cookie ? { token: cookie, via: 'cookie' } : null;
}

/**
 * A cookie rides along on cross-site requests; a bearer header never does. So a write that is not
 * authenticated by a bearer header must come from our own origin or from one listed in
 * CORS_ORIGINS: a write authenticated by cookie (CSRF), and an anonymous one too, such as login
 * or signup (a cross-site form would sign the victim into the attacker's account). A request
 * with no Origin (a non-browser client) is let through unless the browser says it is cross-site.
 */
function isCrossSiteWrite(request: FastifyRequest, allowedOrigins: readonly string[]): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const origin = request.headers.origin;
  if (origin) {
    if (allowedOrigins.includes(origin)) return false;
    try {
      // request.host follows X-Forwarded-Host from the proxies TRUST_PROXY names: behind one
      // that rewrites Host, the browser's origin is the forwarded host.
      return new URL(origin).host !== request.host;
    } catch {
      return true;
    }
  }
  return request.headers['sec-fetch-site'] === 'cross-site';
}

export interface AuthOptions {
  ctx: AppContext;
  /** The accounts module's answer to "whose session is this token?" (null: none, or expired). */
  viewerForToken: (token: string) => Promise<Viewer | null>;
}

async function authPlugin(app: FastifyInstance, { ctx, viewerForToken }: AuthOptions) {
  app.decorateRequest('viewer', null);
  app.decorateRequest('sessionToken', null);

  app.addHook('onRequest', async (request) => {
    const found = tokenFrom(request);
    if (found?.via !== 'bearer' && isCrossSiteWrite(request, ctx.config.CORS_ORIGINS)) {
      throw new AppError('forbidden', 'Cross-site request refused');
    }
    if (!found) return;
    const viewer = await viewerForToken(found.token);
    if (viewer) {
      request.viewer = viewer;
      request.sessionToken = found.token;
    }
  });

  // Answers that are someone's own (a signed-in viewer's, a write's, an (auth) route's, any to a
  // request that carried a token) must not be kept by any cache, the browser's included, unless
  // the route says otherwise (public reads: plugins/public-read.ts, which runs after this hook).
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.hasHeader('cache-control')) return payload;
    const personal =
      request.viewer !== null ||
      !SAFE_METHODS.has(request.method) ||
      request.routeOptions.schema?.security !== undefined ||
      tokenFrom(request) !== null;
    if (personal) reply.header('cache-control', 'no-store');
    return payload;
  });

  // Routes documented as (auth) through `authDocs` refuse visitors before their body is read,
  // so an anonymous caller hears 401 rather than a validation error about a body it sent.
  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.schema?.security && !request.viewer) throw unauthorized();
  });
}

export const auth = fp(authPlugin, { name: 'inkwell-auth' });

/** OpenAPI security note for (auth) routes: a bearer token or the session cookie. */
export const authDocs: { security: Array<Record<string, string[]>> } = {
  security: [{ bearer: [] }, { cookie: [] }],
};

/** For (auth) routes: the viewer, or a 401. */
export function requireViewer(request: FastifyRequest): Viewer {
  if (!request.viewer) throw unauthorized();
  return request.viewer;
}

export function setSessionCookie(
  reply: FastifyReply,
  token: string,
  options: { secure: boolean; maxAgeSeconds: number; path: string },
) {
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: options.secure,
    path: options.path,
    maxAge: options.maxAgeSeconds,
  });
}

export function clearSessionCookie(reply: FastifyReply, path: string) {
  reply.clearCookie(SESSION_COOKIE, { path, httpOnly: true, sameSite: 'lax' });
}
