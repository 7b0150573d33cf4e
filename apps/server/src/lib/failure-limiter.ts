import crypto from 'node:crypto';
import { ExpiringMap } from './expiring-map.ts';

/**
 * Limits guesses (failed logins, wrong current passwords) per key, with an exponential back-off.
 *
 * An attempt is counted when it begins, before the slow check (argon2) runs, and released when it
 * turns out to succeed: so N attempts racing for one key cannot all pass a check made before any
 * of them failed. A key gets `free` attempts; past that, each further attempt waits `baseMs`
 * after the key's last failure, doubling with every failure up to `maxMs`. A key's failures are
 * forgotten once `forgetMs` pass without one.
 *
 * Attempts still being checked are not failures yet: when only they stand in the way (the key's
 * failures plus its attempts in flight reach `free`), a further attempt waits for one of them to
 * end instead of being refused. Right passwords end without counting, so many people signing in
 * at once from one address (an office behind one NAT) all get in; wrong ones become failures, and
 * the attempts waiting behind them then hear the back-off. Either way no more than `free`
 * unproven attempts per key are ever checked at once.
 *
 * Each attempt in flight is an entry of its own that lapses `inFlightMs` after it began: a
 * process that dies in the middle of a check (its store shared with others, in Redis) must not
 * leave the key busy forever.
 *
 * The counting lives behind `AttemptStore`: this process's memory (`MemoryAttemptStore`), or
 * Redis, shared by every process (`redis-attempt-store.ts`, whose Lua script mirrors the rules
 * of `MemoryAttemptStore` line for line; `test/unit/attempt-stores.test.ts` runs one table of
 * cases against both).
 */

export interface BackoffPolicy {
  /** Attempts a key may fail before it must wait. */
  free: number;
  /** The first wait; each further failure doubles it. */
  baseMs: number;
  /** The longest wait. */
  maxMs: number;
  /** Failures are forgotten after this long without one. */
  forgetMs: number;
  /** An attempt still in flight after this long is taken for dead (its process stopped). */
  inFlightMs: number;
}

/** The wait (ms) after the last failure, for a key holding `failures` failures. */
export function backoffMs(policy: BackoffPolicy, failures: number): number {
  if (failures < policy.free) return 0;
  const doublings = Math.min(failures - policy.free, 40);
  return Math.min(policy.maxMs, policy.baseMs * 2 ** doublings);
}

/** What a key says to a new attempt. */
export type Acquired =
  /** Counted as in flight: go ahead. */
  | { admitted: true }
  /** The key's failures impose this wait (ms) before anything more is tried. */
  | { waitMs: number }
  /** Only attempts in flight stand in the way: ask again once one of them has ended. */
  | { busy: true };

/**
 * Where attempts are counted. Async, so a store shared by processes can stand behind it; each
 * method must be atomic for its key. `attempt` names one attempt (unique across processes), so
 * that its end removes its own entry and an entry left by a dead process can lapse.
 */
export interface AttemptStore {
  /** Counts the attempt as in flight if the key lets it through at `now` (see `Acquired`). */
  acquire(key: string, attempt: string, now: number): Promise<Acquired>;
  /** An attempt in flight failed: it becomes a failure and the back-off runs from `now`. */
  fail(key: string, attempt: string, now: number): Promise<void>;
  /** An attempt in flight turned out not to be a guess (it succeeded, or could not be checked). */
  release(key: string, attempt: string): Promise<void>;
  /** Forgets every failure of the key (its attempts in flight stay counted). */
  reset(key: string): Promise<void>;
}

interface KeyState {
  failures: number;
  /** When the last failure happened (epoch ms); the back-off runs from it. */
  failedAt: number;
  /** Attempts admitted and still being checked: when each lapses (epoch ms). */
  inFlight: Map<string, number>;
}

/** This process's memory: the rules themselves, which the Redis store's script mirrors. */
export class MemoryAttemptStore implements AttemptStore {
  private readonly keys = new ExpiringMap<KeyState>();
  private readonly policy: BackoffPolicy;

  constructor(policy: BackoffPolicy) {
    this.policy = policy;
  }

  async acquire(key: string, attempt: string, now: number): Promise<Acquired> {
    const state = this.keys.get(key, now) ?? newState();
    for (const [other, lapsesAt] of state.inFlight) {
      if (lapsesAt <= now) state.inFlight.delete(other);
    }
    const wait = state.failedAt + backoffMs(this.policy, state.failures) - now;
    if (state.failures > 0 && wait > 0) return { waitMs: wait };
    // Past the free attempts, one at a time: each must have failed before the next may try.
    if (state.inFlight.size > 0 && state.failures + state.inFlight.size >= this.policy.free)
      return { busy: true };
    state.inFlight.set(attempt, now + this.policy.inFlightMs);
    this.touch(key, state, now);
    return { admitted: true };
  }

  async fail(key: string, attempt: string, now: number): Promise<void> {
    const state = this.keys.get(key, now) ?? newState();
    state.inFlight.delete(attempt);
    state.failures += 1;
    state.failedAt = now;
    this.touch(key, state, now);
  }

  async release(key: string, attempt: string): Promise<void> {
    const state = this.keys.peek(key);
    if (!state) return;
    state.inFlight.delete(attempt);
    if (state.inFlight.size === 0 && state.failures === 0) this.keys.delete(key);
  }

  async reset(key: string): Promise<void> {
    const state = this.keys.peek(key);
    if (!state) return;
    if (state.inFlight.size === 0) this.keys.delete(key);
    else state.failures = 0;
  }

  /** Keys currently held (for tests). */
  get size(): number {
    return this.keys.size;
  }

  /** Stores the state as used at `now`: the map forgets it `forgetMs` later. */
  private touch(key: string, state: KeyState, now: number): void {
    this.keys.set(key, state, now + this.policy.forgetMs, now);
  }
}

const newState = (): KeyState => ({ failures: 0, failedAt: 0, inFlight: new Map() });

/** An attempt that was let through: say how it ended, once. */
export interface Attempt {
  /** The guess was wrong: it stays counted and the back-off runs from now. */
  failed(): Promise<void>;
  /** The guess was right (or could not be checked): it does not count. */
  release(): Promise<void>;
}

export type Admission = { attempt: Attempt } | { retryAfterSeconds: number };

/** How often a waiting attempt asks again even if no attempt of this process ended (a store
 * shared by processes hears of other processes' attempts only when asked). */
const RECHECK_MS = 250;
/** The longest an attempt waits behind attempts in flight before it is refused. */
const MAX_QUEUE_MS = 10_000;

/** Guesses limited over several keys at once (e.g. per username and per IP). */
export class FailureLimiter {
  /** Attempts waiting for an attempt in flight of this key to end. */
  private readonly waiting = new Map<string, Set<() => void>>();
  private readonly store: AttemptStore;
  private readonly now: () => number;

  constructor(store: AttemptStore, now: () => number = Date.now) {
    this.store = store;
    this.now = now;
  }

  /**
   * Counts an attempt against every key, or none of them. A key whose failures impose a wait
   * refuses the attempt; a key busy with attempts in flight makes it wait for one of them to end
   * (up to MAX_QUEUE_MS) and ask again. Keys already counted are released meanwhile.
   */
  async begin(keys: readonly string[]): Promise<Admission> {
    const queuedSince = this.now();
    for (;;) {
      const attempt = crypto.randomUUID();
      const taken: string[] = [];
      let refusal: Acquired | undefined;
      for (const key of keys) {
        const acquired = await this.store.acquire(key, attempt, this.now());
        if (!('admitted' in acquired)) {
          refusal = acquired;
          break;
        }
        taken.push(key);
      }
      if (!refusal) return { attempt: this.attemptOn(taken, attempt) };
      await Promise.all(taken.map((key) => this.store.release(key, attempt)));
      taken.forEach((key) => this.wake(key));
      if ('waitMs' in refusal)
        return { retryAfterSeconds: Math.max(1, Math.ceil(refusal.waitMs / 1000)) };
      const busyKey = keys[taken.length]!;
      if (this.now() - queuedSince >= MAX_QUEUE_MS) return { retryAfterSeconds: 1 };
      await this.nextEnd(busyKey);
    }
  }

  /** Forgets a key's failures (a correct password for that username). */
  async reset(key: string): Promise<void> {
    await this.store.reset(key);
    this.wake(key);
  }

  private attemptOn(keys: readonly string[], attempt: string): Attempt {
    let settled = false;
    const settle = async (how: (key: string) => Promise<void>) => {
      if (settled) return;
      settled = true;
      await Promise.all(keys.map(how));
      keys.forEach((key) => this.wake(key));
    };
    return {
      failed: () => settle((key) => this.store.fail(key, attempt, this.now())),
      release: () => settle((key) => this.store.release(key, attempt)),
    };
  }

  /** Resolves when an attempt of `key` ends here, or after RECHECK_MS. */
  private nextEnd(key: string): Promise<void> {
    return new Promise((resolve) => {
      let waiters = this.waiting.get(key);
      if (!waiters) this.waiting.set(key, (waiters = new Set()));
      const done = () => {
        clearTimeout(timer);
        waiters.delete(done);
        if (waiters.size === 0 && this.waiting.get(key) === waiters) this.waiting.delete(key);
        resolve();
      };
      const timer = setTimeout(done, RECHECK_MS);
      waiters.add(done);
    });
  }

  private wake(key: string): void {
    const waiters = this.waiting.get(key);
    if (waiters) for (const done of [...waiters]) done();
  }
}
