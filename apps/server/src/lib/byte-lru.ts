/**
 * Values kept by key within a byte budget, the least recently used leaving first. Meant for
 * values that never change under their key (content-addressed uploads): nothing is ever stale,
 * so there is no expiry and nothing to invalidate.
 */
export class ByteLru<V> {
  private readonly kept = new Map<string, V>();
  private bytes = 0;
  private readonly maxBytes: number;
  private readonly sizeOf: (value: V) => number;

  /**
   * `maxBytes` 0 keeps nothing. One value may take at most an eighth of the budget, so that a
   * few large ones never push out everything else.
   */
  constructor(maxBytes: number, sizeOf: (value: V) => number) {
    this.maxBytes = maxBytes;
    this.sizeOf = sizeOf;
  }

  get(key: string): V | undefined {
    const value = this.kept.get(key);
    if (value === undefined) return undefined;
    // Most recently used last: the map's order is what leaves first.
    this.kept.delete(key);
    this.kept.set(key, value);
    return value;
  }

  set(key: string, value: V): void {
    const size = this.sizeOf(value);
    if (size > this.maxBytes / 8 || this.kept.has(key)) return;
    this.kept.set(key, value);
    this.bytes += size;
    for (const [oldest, old] of this.kept) {
      if (this.bytes <= this.maxBytes) break;
      this.kept.delete(oldest);
      this.bytes -= this.sizeOf(old);
    }
  }

  /** Bytes kept now. */
  get size(): number {
    return this.bytes;
  }
}
