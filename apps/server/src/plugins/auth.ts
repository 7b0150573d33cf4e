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
  const cookie = sessionCookieToken(request);
  return cookie ? { token: cookie, via: 'cookie' } : null;
}

/** The token in the session cookie, if any (whether or not a bearer header came too). */
export function sessionCookieToken(request: FastifyRequest): string | null {
  return request.cookies[SESSION_COOKIE]?.replace(/^Bearer\s+/i, '').trim() || null;
}

/** What the cross-site check needs of the configuration. */
interface OriginRules {
  /** CORS_ORIGINS: other origins allowed to write with the cookie. */
  allowed: readonly string[];
  /** PUBLIC_URL's origin, when set: the site's own, whatever a proxy did to Host. */
  publicOrigin: string | null;
  /** Whether TRUST_PROXY names proxies, so the request's scheme and host can be believed. */
  behindTrustedProxy: boolean;
}

/**
 * Whether `origin` is the site's own. Behind a proxy TRUST_PROXY names, the request's scheme and
 * host are what the browser used: Fastify takes X-Forwarded-Proto and X-Forwarded-Host from
 * those proxies only, so a proxy that rewrites Host (to the process's name) still tells us the
 * site; the whole origin must match, scheme and port included (a default port written out or
 * not). Without TRUST_PROXY the scheme is unknown (a TLS proxy in front makes every request look
 * like plain HTTP), so only the Host header is compared. PUBLIC_URL is the site's own origin
 * too: behind a proxy that forwards no host at all, it is the only way to know it.
 */
function isOwnOrigin(request: FastifyRequest, origin: string, rules: OriginRules): boolean {
  try {
    const url = new URL(origin);
    if (url.origin === rules.publicOrigin) return true;
    if (!rules.behindTrustedProxy) return url.host === request.host;
    return url.origin === new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    return false;
  }
}

/**
 * A cookie rides along on cross-site requests; a bearer header never does. So a write that is not
 * authenticated by a bearer header must come from our own origin or from one listed in
 * CORS_ORIGINS: a write authenticated by cookie (CSRF), and an anonymous one too, such as login
 * or signup (a cross-site form would sign the victim into the attacker's account). A request
 * with no Origin (a non-browser client) is let through unless the browser says it is cross-site.
 */
function isCrossSiteWrite(request: FastifyRequest, rules: OriginRules): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const origin = request.headers.origin;
  if (origin) {
    if (rules.allowed.includes(origin)) return false;
    return !isOwnOrigin(request, origin, rules);
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
  const { CORS_ORIGINS, PUBLIC_URL, TRUST_PROXY } = ctx.config;
  const rules: OriginRules = {
    allowed: CORS_ORIGINS,
    publicOrigin: PUBLIC_URL ? new URL(PUBLIC_URL).origin : null,
    behindTrustedProxy: TRUST_PROXY !== false,
  };

  app.addHook('onRequest', async (request) => {
    const found = tokenFrom(request);
    if (found?.via !== 'bearer' && isCrossSiteWrite(request, rules)) {
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
  // Nor may a refusal or a failure: a 404 may be a 200 a moment later (an upload another process
  // is still storing, a book about to be published).
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.hasHeader('cache-control')) return payload;
    const notToKeep =
      reply.statusCode >= 400 ||
      request.viewer !== null ||
      !SAFE_METHODS.has(request.method) ||
      request.routeOptions.schema?.security !== undefined ||
      tokenFrom(request) !== null;
    if (notToKeep) reply.header('cache-control', 'no-store');
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

/** Where this app's cookies live, and whether they go over https only (COOKIE_SECURE). */
export function cookiePlace(
  config: AppContext['config'],
  request: FastifyRequest,
): { secure: boolean; path: string } {
  const secure =
    config.COOKIE_SECURE === 'auto'
      ? request.protocol === 'https'
      : config.COOKIE_SECURE === 'true';
  return { secure, path: config.BASE_PATH || '/' };
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
