import type { Redis } from 'ioredis';
import { MemoryAttemptStore, type AttemptStore, type BackoffPolicy } from './failure-limiter.ts';
import { MemoryLimitStore, type LimitStore } from './limit-store.ts';
import { RedisAttemptStore } from './redis-attempt-store.ts';
import { RedisLimitStore } from './redis-limit-store.ts';
import {
  fallbackAttemptStore,
  fallbackLimitStore,
  StoreFallback,
  type FallbackLog,
} from './store-fallback.ts';

/**
 * Where this app's per-user and per-key limits count (docs/decisions/0027): in Redis when there
 * is one, so that N processes allow what one would, falling back to this process's memory while
 * Redis is unreachable; in memory without Redis. The per-address and per-user request limits
 * (plugins/rate-limits.ts) count here too.
 */
export interface Limits {
  /**
   * Rates and places held: requests per address and per user, chat messages and joins, sockets
   * open.
   */
  store: LimitStore;
  /** The attempt store of a failure limiter, its keys named under `name`. */
  attempts(name: string, policy: BackoffPolicy): AttemptStore;
  close(): void;
}

/** The bucket the fallback's probe spends from: never empty, and gone a moment after. */
const PROBE_KEY = 'fallback-probe';
const PROBE_RATE = { burst: 1_000_000, perSecond: 1_000_000 };

export function createLimits(options: {
  redis: Redis | null;
  /** REDIS_PREFIX: keys go under `{prefix}:limits:`. */
  prefix: string;
  log: FallbackLog;
}): Limits {
  const { redis, log } = options;
  if (!redis) {
    return {
      store: new MemoryLimitStore(),
      attempts: (_name, policy) => new MemoryAttemptStore(policy),
      close: () => {},
    };
  }
  const prefix = `${options.prefix}:limits`;
  const shared = new RedisLimitStore(redis, prefix);
  // One switch for every limit of the process: one warning per outage, not one per limit. Redis
  // is back when a limit's own write goes through, not at a mere PING, which a Redis out of
  // memory, read-only after a failover or denied scripts still answers while every limit fails.
  const fallback = new StoreFallback({
    probe: () => shared.spend(PROBE_KEY, PROBE_RATE, Date.now()),
    log,
  });
  return {
    store: fallbackLimitStore(shared, new MemoryLimitStore(), fallback),
    attempts: (name, policy) =>
      fallbackAttemptStore(
        new RedisAttemptStore(redis, `${prefix}:${name}`, policy),
        new MemoryAttemptStore(policy),
        fallback,
      ),
    close: () => fallback.close(),
  };
}
