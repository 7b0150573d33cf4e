/**
 * Limits guesses (failed logins, wrong current passwords) per key, with an exponential back-off.
 *
 * An attempt is counted when it begins, before the slow check (argon2) runs, and released when it
 * turns out to succeed: so N attempts racing for one key cannot all pass a check made before any
 * of them failed. A key gets `free` attempts; past that, each further attempt waits `baseMs`
 * after the key's last failure, doubling with every failure up to `maxMs`. A key's failures are
 * forgotten once `forgetMs` pass without one.
 *
 * The counting lives behind `AttemptStore`: this process's memory today (each process counts on
 * its own; with N processes a key gets up to N times the attempts), a store shared by every
 * process (Redis) later, through the same interface.
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
}

/** The wait (ms) after the last failure, for a key holding `count` counted attempts. */
export function backoffMs(policy: BackoffPolicy, count: number): number {
  if (count < policy.free) return 0;
  const doublings = Math.min(count - policy.free, 40);
  return Math.min(policy.maxMs, policy.baseMs * 2 ** doublings);
}

/**
 * Where attempts are counted. Async, so a store shared by processes can stand behind it; each
 * method must be atomic for its key.
 */
export interface AttemptStore {
  /**
   * If `key` may try at `now`, counts the attempt and answers 0; otherwise counts nothing and
   * answers how many ms the key must still wait.
   */
  acquire(key: string, now: number): Promise<number>;
  /** A counted attempt failed: the back-off runs from `now`. */
  fail(key: string, now: number): Promise<void>;
  /** A counted attempt turned out not to be a guess (it succeeded, or could not be checked). */
  release(key: string): Promise<void>;
  /** Forgets every failure of the key. */
  reset(key: string): Promise<void>;
}

interface KeyState {
  /** Attempts counted: failures, plus attempts still being checked. */
  count: number;
  /** When the last attempt began or failed (epoch ms); the back-off and forgetting run from it. */
  last: number;
}

/** Keys kept before the oldest are dropped, whatever their state: bounds memory under a flood. */
const MAX_KEYS = 200_000;

/** This process's memory. */
export class MemoryAttemptStore implements AttemptStore {
  private readonly keys = new Map<string, KeyState>();
  private sweepAbove = 10_000;

  constructor(private readonly policy: BackoffPolicy) {}

  async acquire(key: string, now: number): Promise<number> {
    const state = this.live(key, now);
    if (state) {
      const wait = state.last + backoffMs(this.policy, state.count) - now;
      if (wait > 0) return wait;
    }
    this.touch(key, { count: (state?.count ?? 0) + 1, last: now }, now);
    return 0;
  }

  async fail(key: string, now: number): Promise<void> {
    const state = this.live(key, now);
    this.touch(key, { count: Math.max(state?.count ?? 0, 1), last: now }, now);
  }

  async release(key: string): Promise<void> {
    const state = this.keys.get(key);
    if (!state) return;
    if (state.count <= 1) this.keys.delete(key);
    else state.count -= 1;
  }

  async reset(key: string): Promise<void> {
    this.keys.delete(key);
  }

  /** Keys currently held (for tests). */
  get size(): number {
    return this.keys.size;
  }

  private live(key: string, now: number): KeyState | undefined {
    const state = this.keys.get(key);
    if (state && now - state.last > this.policy.forgetMs) {
      this.keys.delete(key);
      return undefined;
    }
    return state;
  }

  /** Stores the state as the newest key (Map order is insertion order: oldest first). */
  private touch(key: string, state: KeyState, now: number): void {
    this.keys.delete(key);
    this.keys.set(key, state);
    if (this.keys.size > this.sweepAbove) this.sweep(now);
  }

  private sweep(now: number): void {
    for (const [key, state] of this.keys) {
      if (now - state.last > this.policy.forgetMs) this.keys.delete(key);
    }
    // Over the cap, the oldest keys go, down to three quarters of it.
    if (this.keys.size > MAX_KEYS) {
      for (const key of this.keys.keys()) {
        if (this.keys.size <= MAX_KEYS * 0.75) break;
        this.keys.delete(key);
      }
    }
    // Sweep again only once the map has grown well past what survived, so a flood of keys costs
    // amortized constant time per attempt.
    this.sweepAbove = Math.min(MAX_KEYS, Math.max(10_000, this.keys.size * 2));
  }
}

/** An attempt that was let through: say how it ended, once. */
export interface Attempt {
  /** The guess was wrong: it stays counted and the back-off runs from now. */
  failed(): Promise<void>;
  /** The guess was right (or could not be checked): it does not count. */
  release(): Promise<void>;
}

export type Admission = { attempt: Attempt } | { retryAfterSeconds: number };

/** Guesses limited over several keys at once (e.g. per username and per IP). */
export class FailureLimiter {
  constructor(
    private readonly store: AttemptStore,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Counts an attempt against every key, or none of them: a key that must wait refuses the
   * attempt, and the keys already counted are released.
   */
  async begin(keys: readonly string[]): Promise<Admission> {
    const taken: string[] = [];
    for (const key of keys) {
      const wait = await this.store.acquire(key, this.now());
      if (wait > 0) {
        await Promise.all(taken.map((k) => this.store.release(k)));
        return { retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };
      }
      taken.push(key);
    }
    let settled = false;
    const settle = async (how: (key: string) => Promise<void>) => {
      if (settled) return;
      settled = true;
      await Promise.all(taken.map(how));
    };
    return {
      attempt: {
        failed: () => settle((key) => this.store.fail(key, this.now())),
        release: () => settle((key) => this.store.release(key)),
      },
    };
  }

  /** Forgets a key's failures (a correct password for that username). */
  reset(key: string): Promise<void> {
    return this.store.reset(key);
  }
}
