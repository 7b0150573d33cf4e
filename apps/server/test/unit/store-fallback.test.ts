import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { FailureLimiter, type BackoffPolicy } from '../../src/lib/failure-limiter.ts';
import { MemoryLimitStore, type LimitStore } from '../../src/lib/limit-store.ts';
import { createLimits } from '../../src/lib/shared-limits.ts';
import {
  CAME_BACK,
  FELL_BACK,
  fallbackLimitStore,
  StoreFallback,
} from '../../src/lib/store-fallback.ts';
import { startRedis, type ThrowawayRedis } from '../reliability/helpers/redis-server.ts';

/** A log that keeps what it was told. */
function recordingLog() {
  const lines: Array<{ level: 'warn' | 'info'; message: string }> = [];
  return {
    lines,
    warn: (_details: object, message: string) => void lines.push({ level: 'warn', message }),
    info: (_details: object, message: string) => void lines.push({ level: 'info', message }),
  };
}

/** A shared store whose every call fails, hangs, or goes to a memory store, as the test says. */
function switchableStore() {
  const inner = new MemoryLimitStore();
  const state = { mode: 'up' as 'up' | 'failing' | 'hanging', calls: 0 };
  const call = <T>(work: () => Promise<T>): Promise<T> => {
    state.calls++;
    if (state.mode === 'failing') return Promise.reject(new Error('connection refused'));
    if (state.mode === 'hanging') return new Promise<T>(() => {});
    return work();
  };
  const store: LimitStore = {
    spend: (...args) => call(() => inner.spend(...args)),
    hold: (...args) => call(() => inner.hold(...args)),
    held: (...args) => call(() => inner.held(...args)),
    renew: (...args) => call(() => inner.renew(...args)),
    unhold: (...args) => call(() => inner.unhold(...args)),
  };
  return { store, state, inner };
}

const rate = { burst: 2, perSecond: 1 };
const place = [{ key: 'k', cap: 1 }];

describe('StoreFallback', () => {
  it('counts in memory once the shared store fails, says so once, and goes back when a probe answers', async () => {
    const log = recordingLog();
    const shared = switchableStore();
    let probeAnswers = false;
    const fallback = new StoreFallback({
      log,
      probeEveryMs: 20,
      probe: async () => {
        if (!probeAnswers) throw new Error('still down');
      },
    });
    const local = new MemoryLimitStore();
    const store = fallbackLimitStore(shared.store, local, fallback);
    try {
      expect(await store.hold(place, 'a', 0, 60_000)).toBe(true);
      expect(await shared.inner.held('k', 0)).toBe(1);

      shared.state.mode = 'failing';
      // Memory holds nothing yet: the place is free there. Never an error, never fail-open on
      // the rate either: the memory bucket counts.
      expect(await store.hold(place, 'b', 0, 60_000)).toBe(true);
      expect(await store.hold(place, 'c', 0, 60_000)).toBe(false);
      const spent = [];
      for (let i = 0; i < 3; i++) spent.push((await store.spend('r', rate, 0)).allowed);
      expect(spent).toEqual([true, true, false]);
      expect(fallback.fallenBack).toBe(true);
      // Not asked again while down: the probe decides when it is back.
      const callsWhileDown = shared.state.calls;
      await store.held('k', 0);
      expect(shared.state.calls).toBe(callsWhileDown);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(log.lines).toEqual([{ level: 'warn', message: FELL_BACK }]);

      shared.state.mode = 'up';
      probeAnswers = true;
      await expect.poll(() => fallback.fallenBack).toBe(false);
      expect(log.lines).toEqual([
        { level: 'warn', message: FELL_BACK },
        { level: 'info', message: CAME_BACK },
      ]);
      expect(await store.held('k', 0)).toBe(1);
    } finally {
      fallback.close();
    }
  });

  it('takes a shared store that does not answer in time for one that failed', async () => {
    const log = recordingLog();
    const shared = switchableStore();
    const fallback = new StoreFallback({ log, timeoutMs: 50, probe: async () => {} });
    try {
      const store = fallbackLimitStore(shared.store, new MemoryLimitStore(), fallback);
      shared.state.mode = 'hanging';
      const started = performance.now();
      expect(await store.spend('r', rate, 0)).toEqual({ allowed: true });
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(log.lines).toEqual([{ level: 'warn', message: FELL_BACK }]);
    } finally {
      fallback.close();
    }
  });

  it('gives places back in memory and in the shared store, whichever took them', async () => {
    const shared = switchableStore();
    const fallback = new StoreFallback({ log: recordingLog(), probe: async () => {} });
    try {
      const local = new MemoryLimitStore();
      const store = fallbackLimitStore(shared.store, local, fallback);
      await local.hold(place, 'a', 0, 60_000);
      await store.hold([{ key: 'k', cap: 5 }], 'a', 0, 60_000);
      await store.unhold(['k'], 'a');
      expect(await local.held('k', 0)).toBe(0);
      expect(await shared.inner.held('k', 0)).toBe(0);
    } finally {
      fallback.close();
    }
  });
});

describe('limits on a Redis that goes away and comes back', () => {
  let redis: ThrowawayRedis | undefined;
  let client: Redis | undefined;
  afterAll(async () => {
    client?.disconnect();
    await redis?.kill();
  });

  it('keep refusing guesses from memory, log the fall-back once, and count in Redis again after', async () => {
    redis = await startRedis();
    // Like the app's commands connection (realtime/redis-bus.ts): no offline queue.
    client = new Redis(redis.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      retryStrategy: (times) => Math.min(times * 50, 200),
    });
    client.on('error', () => {});
    await new Promise((resolve) => client!.once('ready', resolve));
    const log = recordingLog();
    const limits = createLimits({ redis: client, prefix: 'fallback-test', log });
    const policy: BackoffPolicy = {
      free: 3,
      baseMs: 60_000,
      maxMs: 60_000,
      forgetMs: 600_000,
      inFlightMs: 60_000,
    };
    const limiter = new FailureLimiter(limits.attempts('login', policy));
    const fail = async (key: string) => {
      const admission = await limiter.begin([key]);
      if (!('attempt' in admission)) return admission;
      await admission.attempt.failed();
      return 'failed';
    };
    try {
      for (let i = 0; i < 3; i++) expect(await fail('user:ann')).toBe('failed');
      expect(await fail('user:ann')).toEqual({ retryAfterSeconds: 60 });
      expect(await client.exists('fallback-test:limits:login:user:ann')).toBe(1);

      await redis.kill();
      // The failures this process saw are in its memory too: still refused, no error.
      expect(await fail('user:ann')).toEqual({ retryAfterSeconds: 60 });
      for (let i = 0; i < 3; i++) expect(await fail('user:bob')).toBe('failed');
      expect(await fail('user:bob')).toEqual({ retryAfterSeconds: 60 });
      expect(log.lines).toEqual([{ level: 'warn', message: FELL_BACK }]);

      await redis.restart();
      await expect
        .poll(() => log.lines.map((line) => line.message), { timeout: 10_000 })
        .toEqual([FELL_BACK, CAME_BACK]);
      // Counting in Redis again (this one kept nothing across its restart).
      expect(await fail('user:cat')).toBe('failed');
      expect(await client.exists('fallback-test:limits:login:user:cat')).toBe(1);
    } finally {
      limits.close();
    }
  });

  it('stay in memory while Redis answers PING but refuses their writes (out of memory), and come back after', async () => {
    redis ??= await startRedis();
    const admin = new Redis(redis.url);
    const log = recordingLog();
    const limits = createLimits({ redis: admin, prefix: 'oom-test', log });
    try {
      await admin.config('SET', 'maxmemory-policy', 'noeviction');
      await admin.config('SET', 'maxmemory', '1');
      expect(await admin.ping()).toBe('PONG');
      await limits.store.spend('chat:ann', rate, Date.now());
      expect(log.lines).toEqual([{ level: 'warn', message: FELL_BACK }]);
      // Probes go on meanwhile: none may take a PONG for Redis being back.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(log.lines).toEqual([{ level: 'warn', message: FELL_BACK }]);
      await admin.config('SET', 'maxmemory', '0');
      await expect
        .poll(() => log.lines.map((line) => line.message), { timeout: 10_000 })
        .toEqual([FELL_BACK, CAME_BACK]);
    } finally {
      limits.close();
      await admin.config('SET', 'maxmemory', '0');
      admin.disconnect();
    }
  });
});
