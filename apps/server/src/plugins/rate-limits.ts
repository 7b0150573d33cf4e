import rateLimit from '@fastify/rate-limit';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import type { RateLimit } from '../config.ts';
import { AppError } from '../lib/errors.ts';
import type { LimitStore } from '../lib/limit-store.ts';

/**
 * Per-address limits on the endpoints that cost the most or invite abuse: signup and login
 * (argon2), exports, imports, feeds, WebSocket upgrades (docs/decisions/0022). Counted by
 * @fastify/rate-limit in fixed windows: in this process's memory, or in Redis when there is one,
 * so that every process behind the load balancer counts together. Only routes that ask for a
 * limit (route config, `perAddress`) are counted. Per-user limits (`perUser`) count in the
 * app's limit store instead (docs/decisions/0027).
 */

export interface RateLimitsOptions {
  /** Redis commands connection: counts are shared by every process using it. */
  redis: Redis | null;
  /** Prefix of the Redis keys (REDIS_PREFIX). */
  prefix: string;
}

/** The house 429: `{detail, code: "rate_limited"}` with Retry-After, like the login limiter's. */
function tooMany(what: string, retryAfterSeconds: number): AppError {
  const seconds = Math.max(1, retryAfterSeconds);
  return new AppError('rate_limited', `Too many ${what}. Try again in ${seconds} s.`, {
    'retry-after': String(seconds),
  });
}

async function rateLimitsPlugin(app: FastifyInstance, { redis, prefix }: RateLimitsOptions) {
  await app.register(rateLimit, {
    global: false,
    ...(redis && { redis, nameSpace: `${prefix}:rate-limit:` }),
    // Redis unreachable: serve rather than refuse everyone (the login back-off still holds).
    skipOnError: true,
    // Only Retry-After, on the 429 itself: counts in every answer would end up in shared caches
    // (public feeds) and tell a client how close to the limit it is.
    addHeaders: {
      'x-ratelimit-limit': false,
      'x-ratelimit-remaining': false,
      'x-ratelimit-reset': false,
      'retry-after': true,
    },
    addHeadersOnExceeding: {
      'x-ratelimit-limit': false,
      'x-ratelimit-remaining': false,
      'x-ratelimit-reset': false,
    },
  });
}

export const rateLimits = fp(rateLimitsPlugin, { name: 'inkwell-rate-limits' });

/**
 * Route config limiting requests per client address (`request.ip`, as TRUST_PROXY lets it be
 * known; IPv6 addresses by /64). `what` names the requests in the 429's message ("sign-ups from
 * your address"). No limit when the setting is off.
 */
export function perAddress(limit: RateLimit | null, what: string): FastifyContextConfig {
  if (!limit) return {};
  return {
    rateLimit: {
      max: limit.max,
      timeWindow: limit.windowMs,
      errorResponseBuilder: (_request, context) =>
        tooMany(`${what} from your address`, Math.ceil(context.ttl / 1000)),
    },
  };
}

/**
 * A hook limiting a signed-in user's requests, wherever they come from (`what` as for
 * perAddress); visitors are left to the per-address limit. Run it after auth (preHandler).
 * Counted in the limit store (lib/shared-limits.ts: Redis for every process when there is one,
 * else memory, and memory while Redis is away) as a token bucket of `max` requests refilling
 * over `windowMs`: a burst of `max`, then `max` per window. A new per-user limit is one line,
 * e.g. `preHandler: perUser(ctx.limits.store, { max: 5, windowMs: 60_000 }, 'comments')`.
 */
export function perUser(store: LimitStore, limit: RateLimit | null, what: string) {
  if (!limit) return async () => {};
  const rate = { burst: limit.max, perSecond: (limit.max * 1000) / limit.windowMs };
  return async (request: FastifyRequest) => {
    if (!request.viewer) return;
    const spent = await store.spend(`rate:${what}:user:${request.viewer.id}`, rate, Date.now());
    if (!spent.allowed) throw tooMany(what, Math.ceil(spent.retryAfterMs / 1000));
  };
}
