import { ExpiringMap } from './expiring-map.ts';
import { fillMs, spendToken, type BucketState, type TokenRate } from './token-bucket.ts';

/**
 * Where per-key limits count: rates (a token bucket per key: chat messages and joins per user,
 * exports per user, and any per-user rate to come) and places held (sockets open per user and per
 * address). In this process's memory (`MemoryLimitStore`), or in Redis for every process
 * (`redis-limit-store.ts`, whose Lua mirrors these rules; `test/unit/limit-stores.test.ts` runs
 * one table of cases against both). Times are epoch ms, passed in by the caller.
 *
 * A place is held by a named holder (a socket) until a time: the holder's process renews it
 * while the socket is open, so a process that dies without closing its sockets stops counting
 * once their places lapse instead of filling the cap forever.
 */
export interface LimitStore {
  /** Spends a token of the key's bucket; the wait (ms) before one is there when there is none. */
  spend(key: string, rate: TokenRate, now: number): Promise<Spent>;
  /**
   * Takes a place under every key for `holder` until `now + holdMs`, or none of them when one
   * key already holds its `cap` of places (a holder already there is not counted twice).
   */
  hold(places: readonly Place[], holder: string, now: number, holdMs: number): Promise<boolean>;
  /** How many places the key holds at `now`. */
  held(key: string, now: number): Promise<number>;
  /**
   * Keeps these holders' places until `now + holdMs`, putting back any the store lost (an
   * outage, a restart): caps are not checked, the sockets are open whatever they say.
   */
  renew(holds: readonly Held[], now: number, holdMs: number): Promise<void>;
  /** Gives the holder's places under these keys back. */
  unhold(keys: readonly string[], holder: string): Promise<void>;
}

export type Spent = { allowed: true } | { allowed: false; retryAfterMs: number };

/** A key and the places it allows. */
export interface Place {
  key: string;
  cap: number;
}

/** A holder and the keys it holds a place under. */
export interface Held {
  holder: string;
  keys: readonly string[];
}

/** This process's memory: the rules themselves. */
export class MemoryLimitStore implements LimitStore {
  private readonly buckets = new ExpiringMap<BucketState>();
  /** Per key, its holders and when each one's place lapses; the key lapses with its last. */
  private readonly places = new ExpiringMap<Map<string, number>>();

  async spend(key: string, rate: TokenRate, now: number): Promise<Spent> {
    const { bucket, waitMs } = spendToken(this.buckets.get(key, now), rate, now);
    // A full bucket is no different from none: forget it once it would have filled.
    this.buckets.set(key, bucket, bucket.at + fillMs(rate), now);
    return waitMs === 0 ? { allowed: true } : { allowed: false, retryAfterMs: waitMs };
  }

  async hold(
    places: readonly Place[],
    holder: string,
    now: number,
    holdMs: number,
  ): Promise<boolean> {
    for (const { key, cap } of places) {
      const holders = this.holders(key, now);
      if (!holders.has(holder) && holders.size >= cap) return false;
    }
    for (const { key } of places) this.put(key, [holder], now, holdMs);
    return true;
  }

  async held(key: string, now: number): Promise<number> {
    return this.holders(key, now).size;
  }

  async renew(holds: readonly Held[], now: number, holdMs: number): Promise<void> {
    // Per key, so that a key with many holders (an address) is pruned once per renewal.
    const byKey = new Map<string, string[]>();
    for (const { holder, keys } of holds) {
      for (const key of keys) {
        const holders = byKey.get(key);
        if (holders) holders.push(holder);
        else byKey.set(key, [holder]);
      }
    }
    for (const [key, holders] of byKey) this.put(key, holders, now, holdMs);
  }

  async unhold(keys: readonly string[], holder: string): Promise<void> {
    for (const key of keys) {
      const holders = this.places.peek(key);
      holders?.delete(holder);
      if (holders?.size === 0) this.places.delete(key);
    }
  }

  /** The key's holders whose places have not lapsed by `now`. */
  private holders(key: string, now: number): Map<string, number> {
    const holders = this.places.get(key, now) ?? new Map<string, number>();
    for (const [holder, lapsesAt] of holders) if (lapsesAt <= now) holders.delete(holder);
    return holders;
  }

  private put(key: string, newHolders: readonly string[], now: number, holdMs: number): void {
    const holders = this.holders(key, now);
    for (const holder of newHolders) holders.set(holder, now + holdMs);
    let lapsesAt = now + holdMs;
    for (const at of holders.values()) lapsesAt = Math.max(lapsesAt, at);
    this.places.set(key, holders, lapsesAt, now);
  }
}
