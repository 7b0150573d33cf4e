/** A token bucket's shape: it holds up to `burst` tokens and gains `perSecond` of them each second. */
export interface TokenRate {
  burst: number;
  perSecond: number;
}

/** A bucket's tokens as of `at` (ms; any clock, as long as one bucket keeps to one). */
export interface BucketState {
  tokens: number;
  at: number;
}

/**
 * Spends one token of a bucket at `now` (a bucket never seen is full): its state afterwards, and
 * the wait (ms) until a token is there when there was none (0 when one was spent). The rule of
 * every token bucket here, in memory; `redis-limit-store.ts` mirrors it in Lua. A clock that
 * went back (another process's) adds nothing.
 */
export function spendToken(
  bucket: BucketState | undefined,
  rate: TokenRate,
  now: number,
): { bucket: BucketState; waitMs: number } {
  const at = Math.max(now, bucket?.at ?? now);
  const tokens = bucket
    ? Math.min(rate.burst, bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * rate.perSecond)
    : rate.burst;
  if (tokens < 1) {
    return { bucket: { tokens, at }, waitMs: Math.ceil(((1 - tokens) / rate.perSecond) * 1000) };
  }
  return { bucket: { tokens: tokens - 1, at }, waitMs: 0 };
}

/** How long (ms) a bucket takes to fill from empty: after that, forgetting it changes nothing. */
export const fillMs = (rate: TokenRate) => Math.ceil((rate.burst / rate.perSecond) * 1000);

/** One bucket in this process's memory (a connection's own allowance, say). */
export class TokenBucket {
  private state: BucketState | undefined;
  private readonly rate: TokenRate;
  private readonly now: () => number;

  constructor(burst: number, perSecond: number, now: () => number = () => performance.now()) {
    this.now = now;
    this.rate = { burst, perSecond };
  }

  /** Spends one token; false when the bucket is empty. */
  take(): boolean {
    const { bucket, waitMs } = spendToken(this.state, this.rate, this.now());
    this.state = bucket;
    return waitMs === 0;
  }
}
