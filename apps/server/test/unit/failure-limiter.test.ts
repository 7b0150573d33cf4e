import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  FailureLimiter,
  MemoryAttemptStore,
  type Admission,
  type BackoffPolicy,
} from '../../src/lib/failure-limiter.ts';

const policy: BackoffPolicy = {
  free: 3,
  baseMs: 1000,
  maxMs: 8000,
  forgetMs: 60_000,
  inFlightMs: 30_000,
};

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
    const admissions = Array.from({ length: 10 }, () => limiter.begin(['k']));
    const first = await Promise.all(admissions.slice(0, policy.free));
    // The others wait for those in flight: none is checked alongside them.
    let waitingDone = false;
    const waiting = Promise.all(admissions.slice(policy.free)).finally(() => (waitingDone = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(waitingDone).toBe(false);
    // All of the first ones fail: the rest hear the back-off, and none was let through.
    await Promise.all(first.map((admission) => attemptOf(admission).failed()));
    const rest = await waiting;
    expect(rest.every((a) => 'retryAfterSeconds' in a)).toBe(true);
  });

  it('lets attempts waiting behind right ones through as those end', async () => {
    const { limiter } = limiterAt();
    const admissions = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const admission = await limiter.begin(['k']);
        // Each checks a right password for a moment, then ends without counting.
        await new Promise((resolve) => setTimeout(resolve, 5));
        await attemptOf(admission).release();
        return admission;
      }),
    );
    expect(admissions.every((a) => 'attempt' in a)).toBe(true);
  });

  it('refuses an attempt that waited 10 s behind attempts that never end', async () => {
    const { clock, limiter } = limiterAt();
    for (let i = 0; i < policy.free; i++) attemptOf(await limiter.begin(['k']));
    const waiting = limiter.begin(['k']);
    clock.now += 10_000;
    expect(await waiting).toEqual({ retryAfterSeconds: 1 });
  });

  it('checks one attempt at a time once the free ones have failed', async () => {
    const { clock, limiter } = limiterAt();
    for (let i = 0; i < policy.free; i++) await attemptOf(await limiter.begin(['k'])).failed();
    clock.now += 1000;
    const one = attemptOf(await limiter.begin(['k']));
    const next = limiter.begin(['k']);
    await one.failed();
    expect(await next).toEqual({ retryAfterSeconds: 2 });
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
