/** Counts things in progress per key in this process (uploads per user); a key at 0 is forgotten. */
export class KeyedCounter<K> {
  private readonly counts = new Map<K, number>();

  count(key: K): number {
    return this.counts.get(key) ?? 0;
  }

  increment(key: K): void {
    this.counts.set(key, this.count(key) + 1);
  }

  decrement(key: K): void {
    const left = this.count(key) - 1;
    if (left > 0) this.counts.set(key, left);
    else this.counts.delete(key);
  }
}
