import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import {
  MemoryAttemptStore,
  type Acquired,
  type AttemptStore,
  type BackoffPolicy,
} from '../../src/lib/failure-limiter.ts';
import { RedisAttemptStore } from '../../src/lib/redis-attempt-store.ts';
import { dropRedisKeys } from '../helpers/live.ts';

/**
 * One table of cases, run against the memory store (the rules) and the Redis store (their Lua
 * copy, on the local Redis): if either drifts from the other, a case fails on one of them.
 * Times are the callers' own (ms from 0 here), as the stores take them.
 */

const policy: BackoffPolicy = {
  free: 3,
  baseMs: 1000,
  maxMs: 8000,
  forgetMs: 60_000,
  inFlightMs: 5_000,
};

type Step =
  | ['acquire', key: string, attempt: string, at: number, expected: Acquired]
  | ['fail', key: string, attempt: string, at: number]
  | ['release', key: string, attempt: string]
  | ['reset', key: string];

const admitted: Acquired = { admitted: true };
const busy: Acquired = { busy: true };
const wait = (waitMs: number): Acquired => ({ waitMs });

/** Three attempts on `key` at `at`, each failing. */
const threeFailures = (key: string, at: number): Step[] =>
  ['f1', 'f2', 'f3'].flatMap((attempt): Step[] => [
    ['acquire', key, attempt, at, admitted],
    ['fail', key, attempt, at],
  ]);

const cases: Record<string, Step[]> = {
  'free failures, then the back-off from the last one': [
    ...threeFailures('k', 0),
    ['acquire', 'k', 'a', 0, wait(1000)],
    ['acquire', 'k', 'a', 400, wait(600)],
    ['acquire', 'k', 'a', 1000, admitted],
  ],
  'the back-off doubles with each failure, up to maxMs': [
    ...threeFailures('k', 0),
    ['acquire', 'k', 'a', 1000, admitted],
    ['fail', 'k', 'a', 1000],
    ['acquire', 'k', 'b', 1000, wait(2000)],
    ['acquire', 'k', 'b', 3000, admitted],
    ['fail', 'k', 'b', 3000],
    ['acquire', 'k', 'c', 3000, wait(4000)],
    ['acquire', 'k', 'c', 7000, admitted],
    ['fail', 'k', 'c', 7000],
    ['acquire', 'k', 'd', 7000, wait(8000)],
    ['acquire', 'k', 'd', 15_000, admitted],
    ['fail', 'k', 'd', 15_000],
    ['acquire', 'k', 'e', 15_000, wait(8000)],
  ],
  'attempts in flight up to the free ones; the next waits for one to end': [
    ['acquire', 'k', 'a', 0, admitted],
    ['acquire', 'k', 'b', 0, admitted],
    ['acquire', 'k', 'c', 0, admitted],
    ['acquire', 'k', 'd', 0, busy],
    ['release', 'k', 'a'],
    ['acquire', 'k', 'd', 0, admitted],
    ['acquire', 'k', 'e', 0, busy],
  ],
  'past the free failures, one attempt at a time': [
    ...threeFailures('k', 0),
    ['acquire', 'k', 'a', 1000, admitted],
    ['acquire', 'k', 'b', 1000, busy],
    ['release', 'k', 'a'],
    ['acquire', 'k', 'b', 1000, admitted],
  ],
  'an attempt in flight lapses after inFlightMs (its process died)': [
    ['acquire', 'k', 'a', 0, admitted],
    ['acquire', 'k', 'b', 0, admitted],
    ['acquire', 'k', 'c', 100, admitted],
    ['acquire', 'k', 'd', 4_999, busy],
    ['acquire', 'k', 'd', 5_000, admitted],
    // a and b lapsed; c is still there, with d.
    ['acquire', 'k', 'e', 5_000, admitted],
    ['acquire', 'k', 'f', 5_000, busy],
  ],
  'a released attempt leaves no trace; a failed one counts': [
    ['acquire', 'k', 'a', 0, admitted],
    ['release', 'k', 'a'],
    ['acquire', 'k', 'b', 0, admitted],
    ['fail', 'k', 'b', 0],
    ['acquire', 'k', 'c', 0, admitted],
    ['fail', 'k', 'c', 0],
    ['acquire', 'k', 'd', 0, admitted],
    ['fail', 'k', 'd', 0],
    ['acquire', 'k', 'e', 0, wait(1000)],
  ],
  'failures are forgotten forgetMs after the last use of the key': [
    ...threeFailures('k', 0),
    ['acquire', 'k', 'a', 60_000, admitted],
    ['release', 'k', 'a'],
    // Used at 60 000: remembered until 120 000, so this is its fourth failure.
    ['acquire', 'k', 'b', 120_000, admitted],
    ['fail', 'k', 'b', 120_000],
    ['acquire', 'k', 'c', 120_000, wait(2000)],
    // Unused since 120 000: forgotten after 180 000, the failures count from one again.
    ...threeFailures('k', 180_001),
    ['acquire', 'k', 'd', 180_001, wait(1000)],
  ],
  'a failure on a key never seen counts': [
    ['fail', 'k', 'x', 0],
    ['fail', 'k', 'y', 0],
    ['fail', 'k', 'z', 0],
    ['acquire', 'k', 'a', 0, wait(1000)],
  ],
  'reset forgets the failures, not the attempts in flight': [
    ['acquire', 'k', 'a', 0, admitted],
    ['fail', 'k', 'a', 0],
    ['acquire', 'k', 'b', 0, admitted],
    ['fail', 'k', 'b', 0],
    ['acquire', 'k', 'c', 0, admitted],
    ['acquire', 'k', 'd', 0, busy],
    ['reset', 'k'],
    ['acquire', 'k', 'd', 0, admitted],
    ['acquire', 'k', 'e', 0, admitted],
    ['acquire', 'k', 'f', 0, busy],
    ['reset', 'unknown'],
  ],
  'keys count apart': [
    ...threeFailures('user:ann', 0),
    ['acquire', 'user:ann', 'a', 0, wait(1000)],
    ['acquire', 'ip:10.0.0.1', 'a', 0, admitted],
    ['acquire', 'user:bob', 'b', 0, admitted],
  ],
};

/** Runs the steps; answers what each acquire said, in order. */
async function play(store: AttemptStore, steps: Step[]): Promise<Acquired[]> {
  const answers: Acquired[] = [];
  for (const step of steps) {
    if (step[0] === 'acquire') answers.push(await store.acquire(step[1], step[2], step[3]));
    else if (step[0] === 'fail') await store.fail(step[1], step[2], step[3]);
    else if (step[0] === 'release') await store.release(step[1], step[2]);
    else await store.reset(step[1]);
  }
  return answers;
}

const expected = (steps: Step[]) =>
  steps.flatMap((step) => (step[0] === 'acquire' ? [step[4]] : []));

const prefix = `inkwell-test-attempts-${crypto.randomBytes(5).toString('hex')}`;
const redis = new Redis('redis://127.0.0.1:6379');
afterAll(async () => {
  await dropRedisKeys(prefix);
  redis.disconnect();
});

let storeCounter = 0;
const stores: Record<string, () => AttemptStore> = {
  memory: () => new MemoryAttemptStore(policy),
  redis: () => new RedisAttemptStore(redis, `${prefix}:${++storeCounter}`, policy),
};

describe.each(Object.keys(stores))('the %s attempt store', (kind) => {
  it.each(Object.keys(cases))('%s', async (name) => {
    const steps = cases[name]!;
    expect(await play(stores[kind]!(), steps)).toEqual(expected(steps));
  });
});

describe('the Redis attempt store', () => {
  it('forgets a key in Redis once nothing is counted under it, and expires the rest', async () => {
    const keyPrefix = `${prefix}:keys`;
    const store = new RedisAttemptStore(redis, keyPrefix, policy);
    await store.acquire('k', 'a', Date.now());
    await store.release('k', 'a');
    expect(await redis.exists(`${keyPrefix}:k`)).toBe(0);
    await store.acquire('k', 'b', Date.now());
    await store.fail('k', 'b', Date.now());
    const ttl = await redis.pttl(`${keyPrefix}:k`);
    expect(ttl).toBeGreaterThan(policy.forgetMs - 5_000);
    expect(ttl).toBeLessThanOrEqual(policy.forgetMs + 1);
  });

  it('runs its script again after Redis forgot it (SCRIPT FLUSH)', async () => {
    const store = new RedisAttemptStore(redis, `${prefix}:flush`, policy);
    expect(await store.acquire('k', 'a', 0)).toEqual(admitted);
    await redis.script('FLUSH');
    expect(await store.acquire('k', 'b', 0)).toEqual(admitted);
  });

  it('lets one of many processes racing for the last free attempt through', async () => {
    // Separate connections, as separate processes would have.
    const clients = Array.from({ length: 4 }, () => new Redis('redis://127.0.0.1:6379'));
    try {
      const keyPrefix = `${prefix}:race`;
      const racers = clients.map((client) => new RedisAttemptStore(client, keyPrefix, policy));
      const now = Date.now();
      await racers[0]!.fail('k', 'x', now);
      await racers[0]!.fail('k', 'y', now);
      const answers = await Promise.all(
        racers.flatMap((store, i) =>
          Array.from({ length: 5 }, (_, j) => store.acquire('k', `a${i}-${j}`, now)),
        ),
      );
      expect(answers.filter((answer) => 'admitted' in answer)).toHaveLength(1);
    } finally {
      for (const client of clients) client.disconnect();
    }
  });
});
