/**
 * A map whose entries each expire at a time of their own, with a cap on how many it keeps: the
 * memory behind this process's limits (failed logins, token buckets, held places), which a flood
 * of new keys (addresses, usernames) must not grow without end.
 *
 * An expired entry is gone for `get`; it is dropped when read, or by a sweep that runs once the
 * map has doubled since the last one (amortized constant time per write). Over the cap, the
 * entries written longest ago go first, down to three quarters of it.
 */
export class ExpiringMap<V> {
  /** Insertion order is write order (`set` moves a key to the end): oldest first. */
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  private sweepAbove: number;
  private readonly maxKeys: number;
  private readonly minSweep: number;

  constructor(maxKeys = 200_000, minSweep = 10_000) {
    this.maxKeys = maxKeys;
    this.minSweep = minSweep;
    this.sweepAbove = minSweep;
  }

  /** The value, unless it expired by `now` (an entry expiring at `now` is still there). */
  get(key: string, now: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (now > entry.expiresAt) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** The value, expired or not: for changes that only ever shrink what a key holds. */
  peek(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  /** Stores the value until `expiresAt`, as the newest key. */
  set(key: string, value: V, expiresAt: number, now: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt });
    if (this.entries.size > this.sweepAbove) this.sweep(now);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  private sweep(now: number): void {
    for (const [key, entry] of this.entries) {
      if (now > entry.expiresAt) this.entries.delete(key);
    }
    if (this.entries.size > this.maxKeys) {
      for (const key of this.entries.keys()) {
        if (this.entries.size <= this.maxKeys * 0.75) break;
        this.entries.delete(key);
      }
    }
    this.sweepAbove = Math.min(this.maxKeys, Math.max(this.minSweep, this.entries.size * 2));
  }
}
