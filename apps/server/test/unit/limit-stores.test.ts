import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryLimitStore, type LimitStore, type Place } from '../../src/lib/limit-store.ts';
import { RedisLimitStore } from '../../src/lib/redis-limit-store.ts';
import type { TokenRate } from '../../src/lib/token-bucket.ts';
import { dropRedisKeys } from '../helpers/live.ts';

/**
 * One table of cases, run against the memory store (the rules) and the Redis store (their Lua
 * copy, on the local Redis): token buckets and held places must answer alike in both. Times are
 * the callers' own (ms from a fixed start here), as the stores take them.
 */

const T0 = 1_000_000;
const rate: TokenRate = { burst: 3, perSecond: 2 };
const HOLD_MS = 1_000;

type Step = { step: (store: LimitStore) => Promise<unknown>; expected: unknown };

const spend = (key: string, at: number, expected: true | number): Step => ({
  step: async (store) => {
    const spent = await store.spend(key, rate, T0 + at);
    return spent.allowed ? true : spent.retryAfterMs;
  },
  expected,
});
const hold = (places: Place[], holder: string, at: number, expected: boolean): Step => ({
  step: (store) => store.hold(places, holder, T0 + at, HOLD_MS),
  expected,
});
const held = (key: string, at: number, expected: number): Step => ({
  step: (store) => store.held(key, T0 + at),
  expected,
});
const renew = (holder: string, keys: string[], at: number): Step => ({
  step: (store) => store.renew([{ holder, keys }], T0 + at, HOLD_MS),
  expected: undefined,
});
const unhold = (keys: string[], holder: string): Step => ({
  step: (store) => store.unhold(keys, holder),
  expected: undefined,
});

const cases: Record<string, Step[]> = {
  'a bucket starts full, empties, and says how long until the next token': [
    spend('k', 0, true),
    spend('k', 0, true),
    spend('k', 0, true),
    spend('k', 0, 500),
    spend('k', 250, 250),
    spend('k', 500, true),
    spend('k', 500, 500),
  ],
  'a bucket refills at its rate, up to the burst': [
    spend('k', 0, true),
    spend('k', 0, true),
    spend('k', 0, true),
    spend('k', 1_000, true),
    spend('k', 1_000, true),
    spend('k', 1_000, 500),
    spend('k', 60_000, true),
    spend('k', 60_000, true),
    spend('k', 60_000, true),
    spend('k', 60_000, 500),
  ],
  'a clock gone back (another process) adds no tokens': [
    spend('k', 1_000, true),
    spend('k', 1_000, true),
    spend('k', 1_000, true),
    spend('k', 400, 500),
    spend('k', 1_250, 250),
  ],
  'buckets count apart': [
    spend('a', 0, true),
    spend('a', 0, true),
    spend('a', 0, true),
    spend('a', 0, 500),
    spend('b', 0, true),
  ],
  'places up to the cap; one given back frees it': [
    hold([{ key: 'k', cap: 2 }], 'h1', 0, true),
    hold([{ key: 'k', cap: 2 }], 'h2', 0, true),
    hold([{ key: 'k', cap: 2 }], 'h3', 0, false),
    held('k', 0, 2),
    unhold(['k'], 'h1'),
    held('k', 0, 1),
    hold([{ key: 'k', cap: 2 }], 'h3', 0, true),
  ],
  'a place under every key, or none': [
    hold(
      [
        { key: 'user', cap: 1 },
        { key: 'address', cap: 5 },
      ],
      'h1',
      0,
      true,
    ),
    hold(
      [
        { key: 'address', cap: 5 },
        { key: 'user', cap: 1 },
      ],
      'h2',
      0,
      false,
    ),
    held('address', 0, 1),
    held('user', 0, 1),
  ],
  'a holder is not counted twice': [
    hold([{ key: 'k', cap: 1 }], 'h1', 0, true),
    hold([{ key: 'k', cap: 1 }], 'h1', 0, true),
    held('k', 0, 1),
  ],
  'places lapse unless renewed': [
    hold([{ key: 'k', cap: 5 }], 'h1', 0, true),
    hold([{ key: 'k', cap: 5 }], 'h2', 0, true),
    renew('h1', ['k'], 900),
    held('k', 999, 2),
    held('k', 1_000, 1),
    held('k', 1_899, 1),
    held('k', 1_900, 0),
  ],
  'renewing puts back a place the store lost': [
    renew('h1', ['a', 'b'], 0),
    held('a', 0, 1),
    held('b', 0, 1),
    hold([{ key: 'a', cap: 1 }], 'h2', 0, false),
  ],
  'giving back what is not held changes nothing': [
    unhold(['k'], 'h1'),
    hold([{ key: 'k', cap: 1 }], 'h2', 0, true),
    unhold(['k'], 'h1'),
    held('k', 0, 1),
  ],
};

const prefix = `inkwell-test-limits-${crypto.randomBytes(5).toString('hex')}`;
const redis = new Redis('redis://127.0.0.1:6379');
afterAll(async () => {
  await dropRedisKeys(prefix);
  redis.disconnect();
});

let storeCounter = 0;
const stores: Record<string, () => LimitStore> = {
  memory: () => new MemoryLimitStore(),
  redis: () => new RedisLimitStore(redis, `${prefix}:${++storeCounter}`),
};

describe.each(Object.keys(stores))('the %s limit store', (kind) => {
  it.each(Object.keys(cases))('%s', async (name) => {
    const store = stores[kind]!();
    const answers = [];
    for (const { step } of cases[name]!) answers.push(await step(store));
    expect(answers).toEqual(cases[name]!.map(({ expected }) => expected));
  });
});

describe('the Redis limit store', () => {
  it('lets Redis forget a bucket once it would be full again, and places with their last holder', async () => {
    const keyPrefix = `${prefix}:ttl`;
    const store = new RedisLimitStore(redis, keyPrefix);
    await store.spend('bucket', rate, Date.now());
    const bucketTtl = await redis.pttl(`${keyPrefix}:bucket`);
    expect(bucketTtl).toBeGreaterThan(1_000);
    expect(bucketTtl).toBeLessThanOrEqual(1_501);
    await store.hold([{ key: 'place', cap: 1 }], 'h', Date.now(), HOLD_MS);
    expect(await redis.pttl(`${keyPrefix}:place`)).toBeGreaterThan(0);
    await store.unhold(['place'], 'h');
    expect(await redis.exists(`${keyPrefix}:place`)).toBe(0);
  });

  it('gives the last place to one of many processes racing for it', async () => {
    const clients = Array.from({ length: 4 }, () => new Redis('redis://127.0.0.1:6379'));
    try {
      const keyPrefix = `${prefix}:race`;
      const racers = clients.map((client) => new RedisLimitStore(client, keyPrefix));
      const now = Date.now();
      const answers = await Promise.all(
        racers.flatMap((store, i) =>
          Array.from({ length: 5 }, (_, j) =>
            store.hold([{ key: 'k', cap: 3 }], `h${i}-${j}`, now, 60_000),
          ),
        ),
      );
      expect(answers.filter(Boolean)).toHaveLength(3);
      const spent = await Promise.all(
        racers.flatMap((store) =>
          Array.from({ length: 5 }, () => store.spend('bucket', rate, now)),
        ),
      );
      expect(spent.filter((answer) => answer.allowed)).toHaveLength(rate.burst);
    } finally {
      for (const client of clients) client.disconnect();
    }
  });

  it('renews many places in chunks', async () => {
    const store = new RedisLimitStore(redis, `${prefix}:many`);
    const holds = Array.from({ length: 1_200 }, (_, i) => ({
      holder: `h${i}`,
      keys: ['all', `own:${i}`],
    }));
    await store.renew(holds, Date.now(), 60_000);
    expect(await store.held('all', Date.now())).toBe(1_200);
    expect(await store.held('own:1199', Date.now())).toBe(1);
  });
});
