import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  FailureLimiter,
  MemoryAttemptStore,
  type Admission,
  type BackoffPolicy,
} from '../../src/lib/failure-limiter.ts';

const policy: BackoffPolicy = { free: 3, baseMs: 1000, maxMs: 8000, forgetMs: 60_000 };

function limiterAt(start = 0) {
  const clock = { now: start };
  const store = new MemoryAttemptStore(policy);
  return { clock, store, limiter: new FailureLimiter(store, () => clock.now) };
}

const attemptOf = (admission: Admission) => {
  if (!('attempt' in admission)) throw new Error(`refused: ${admission.retryAfterSeconds} s`);
  return admission.attempt;
};

describe('FailureLimiter', () => {
  it('counts an attempt when it begins, so parallel attempts cannot all pass', async () => {
    const { limiter } = limiterAt();
    const admissions = await Promise.all(Array.from({ length: 10 }, () => limiter.begin(['k'])));
    expect(admissions.filter((a) => 'attempt' in a)).toHaveLength(policy.free);
    expect(admissions.filter((a) => 'retryAfterSeconds' in a)).toHaveLength(10 - policy.free);
  });

  it('releases attempts that succeed', async () => {
    const { limiter } = limiterAt();
    for (let i = 0; i < 10; i++) await attemptOf(await limiter.begin(['k'])).release();
    expect('attempt' in (await limiter.begin(['k']))).toBe(true);
  });

  it('backs off exponentially after the free failures, up to the longest wait', async () => {
    const { clock, limiter } = limiterAt();
    for (let i = 0; i < policy.free; i++) await attemptOf(await limiter.begin(['k'])).failed();
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const refused = await limiter.begin(['k']);
      expect(refused).toHaveProperty('retryAfterSeconds');
      const wait = (refused as { retryAfterSeconds: number }).retryAfterSeconds;
      waits.push(wait);
      clock.now += wait * 1000;
      await attemptOf(await limiter.begin(['k'])).failed();
    }
    expect(waits).toEqual([1, 2, 4, 8, 8, 8]);
  });

  it('forgets failures after forgetMs without one', async () => {
    const { clock, limiter } = limiterAt();
    for (let i = 0; i < policy.free; i++) await attemptOf(await limiter.begin(['k'])).failed();
    expect(await limiter.begin(['k'])).toHaveProperty('retryAfterSeconds');
    clock.now += policy.forgetMs + 1;
    for (let i = 0; i < policy.free; i++) await attemptOf(await limiter.begin(['k'])).failed();
  });

  it('counts against every key or none: a key that must wait releases the others', async () => {
    const { limiter } = limiterAt();
    for (let i = 0; i < policy.free; i++) await attemptOf(await limiter.begin(['user:a'])).failed();
    for (let i = 0; i < 5; i++)
      expect(await limiter.begin(['ip:1', 'user:a'])).toHaveProperty('retryAfterSeconds');
    // ip:1 was never left counted.
    for (let i = 0; i < policy.free; i++) await attemptOf(await limiter.begin(['ip:1'])).failed();
  });

  it('settles an attempt once', async () => {
    const { limiter } = limiterAt();
    const attempt = attemptOf(await limiter.begin(['k']));
    await attempt.failed();
    await attempt.release();
    for (let i = 1; i < policy.free; i++) await attemptOf(await limiter.begin(['k'])).failed();
    expect(await limiter.begin(['k'])).toHaveProperty('retryAfterSeconds');
  });

  it('keeps memory bounded under a flood of keys', async () => {
    const { store, limiter } = limiterAt();
    for (let i = 0; i < 250_000; i++) await limiter.begin([`flood:${i}`]);
    expect(store.size).toBeLessThanOrEqual(200_000);
  });

  it('computes the back-off', () => {
    expect([0, 2, 3, 4, 5, 6, 100].map((n) => backoffMs(policy, n))).toEqual([
      0, 0, 1000, 2000, 4000, 8000, 8000,
    ]);
  });
});
