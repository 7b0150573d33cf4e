import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyRequest,
  onRequestHookHandler,
} from 'fastify';
import fp from 'fastify-plugin';
import type { RateLimit } from '../config.ts';
import { clientAddress } from '../lib/client-address.ts';
import { rateLimited } from '../lib/errors.ts';
import type { LimitStore } from '../lib/limit-store.ts';
import type { TokenRate } from '../lib/token-bucket.ts';

/**
 * Request limits, counted in the app's limit store (`ctx.limits.store`, lib/shared-limits.ts: in
 * Redis for every process when there is one, else in memory, and in memory while Redis is away;
 * docs/decisions/0027). Each limit is a token bucket of `max` requests refilling over `windowMs`:
 * a burst of `max`, then `max` per window.
 *
 * - `perAddress` (route config): per client address, on the endpoints that cost the most or
 *   invite abuse: signup and login (argon2), exports, imports, feeds, WebSocket upgrades and
 *   socket tickets (docs/decisions/0022). Only routes that ask are counted, each on its own.
 * - `perUser` (a preHandler): per signed-in user, wherever they come from.
 */

/** What a route's `perAddress` config holds. */
export interface AddressLimit {
  rate: TokenRate;
  /** The requests, as the 429's message names them ("sign-ups"). */
  what: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Requests per client address on this route: set with `perAddress(setting, what)`. */
    perAddress?: AddressLimit;
  }
}

export interface RateLimitsOptions {
  /** The app's limit store (`ctx.limits.store`). */
  store: LimitStore;
}

/** A limit of `max` per `windowMs` as a token bucket: a burst of `max`, refilled over the window. */
const tokenRate = (limit: RateLimit): TokenRate => ({
  burst: limit.max,
  perSecond: (limit.max * 1000) / limit.windowMs,
});

async function rateLimitsPlugin(app: FastifyInstance, { store }: RateLimitsOptions) {
  // A request hook of each route that asks, after the app's own request hooks (those of CORS,
  // cookies and the WebSocket plugin, which a 429 needs) and before its body is read, its socket
  // upgraded, its password hashed. Only Retry-After, on the 429 itself: counts in every answer
  // would end up in shared caches (public feeds) and tell a client how close to the limit it is.
  app.addHook('onRoute', (route) => {
    const limit = route.config?.perAddress;
    if (!limit) return;
    // Per route (its path: a HEAD counts with its GET), so the three feed routes count apart.
    const limiter: onRequestHookHandler = async (request) => {
      const key = `rate:address:${route.url}:${clientAddress(request.ip)}`;
      const spent = await store.spend(key, limit.rate, Date.now());
      if (!spent.allowed) throw rateLimited(`${limit.what} from your address`, spent.retryAfterMs);
    };
    route.onRequest = [...[route.onRequest ?? []].flat(), limiter];
  });
}

export const rateLimits = fp(rateLimitsPlugin, { name: 'inkwell-rate-limits' });

/**
 * Route config limiting requests per client address (`request.ip`, as TRUST_PROXY lets it be
 * known; IPv6 addresses by /64). `what` names the requests in the 429's message ("sign-ups from
 * your address"). No limit when the setting is off.
 */
export function perAddress(limit: RateLimit | null, what: string): FastifyContextConfig {
  return limit ? { perAddress: { rate: tokenRate(limit), what } } : {};
}

/**
 * A hook limiting a signed-in user's requests, wherever they come from (`what` as for
 * perAddress); visitors are left to the per-address limit. Run it after auth (preHandler).
 * A new per-user limit is one line,
 * e.g. `preHandler: perUser(ctx.limits.store, { max: 5, windowMs: 60_000 }, 'comments')`.
 */
export function perUser(store: LimitStore, limit: RateLimit | null, what: string) {
  if (!limit) return async () => {};
  const rate = tokenRate(limit);
  return async (request: FastifyRequest) => {
    if (!request.viewer) return;
    const spent = await store.spend(`rate:${what}:user:${request.viewer.id}`, rate, Date.now());
    if (!spent.allowed) throw rateLimited(what, spent.retryAfterMs);
  };
}
