import type { AttemptStore } from './failure-limiter.ts';
import type { LimitStore } from './limit-store.ts';

export interface FallbackLog {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

export const FELL_BACK =
  "limits: redis unreachable; counting in this process's memory until it is back";
export const CAME_BACK = 'limits: redis reachable again; counting in redis';

export interface FallbackOptions {
  /** Answers when the shared store is reachable again (a Redis PING). */
  probe: () => Promise<unknown>;
  log: FallbackLog;
  /** The longest a shared operation may take before it counts as failed (a Redis that hangs). */
  timeoutMs?: number;
  /** How often the shared store is probed while down. */
  probeEveryMs?: number;
}

/**
 * Which store counts, the shared one (Redis) or this process's memory: limits must neither fail
 * open nor answer 500 because Redis is away. The shared store counts while it answers; the first
 * operation that fails or times out switches every limit of the process to memory (one warning),
 * and a probe then asks every `probeEveryMs` until it answers again (one info line), from when
 * the shared store counts again. Meanwhile each process counts on its own, as without Redis.
 *
 * What was counted in memory during an outage is not copied to Redis: it was only ever this
 * process's share, and it lapses (failures after their window, places when not renewed).
 */
export class StoreFallback {
  private down = false;
  private probing: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly timeoutMs: number;
  private readonly probeEveryMs: number;
  private readonly options: FallbackOptions;

  constructor(options: FallbackOptions) {
    this.options = options;
    this.timeoutMs = options.timeoutMs ?? 500;
    this.probeEveryMs = options.probeEveryMs ?? 1_000;
  }

  /** Whether limits count in memory now (for tests and metrics). */
  get fallenBack(): boolean {
    return this.down;
  }

  /** `shared`, unless the shared store is down or fails now: then `local`. */
  async run<T>(shared: () => Promise<T>, local: () => Promise<T>): Promise<T> {
    if (this.down) return local();
    try {
      return await this.inTime(shared());
    } catch (error) {
      this.fallBack(error);
      return local();
    }
  }

  /**
   * For what gives something back (an attempt's end, a place released): done in memory always,
   * since memory may hold it from an outage, and in the shared store unless it is down.
   */
  async both(shared: () => Promise<void>, local: () => Promise<void>): Promise<void> {
    await local();
    if (this.down) return;
    try {
      await this.inTime(shared());
    } catch (error) {
      this.fallBack(error);
    }
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.probing);
  }

  private inTime<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer within ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
    });
    // An answer after the timeout is of no use; its failure must not go unhandled.
    work.catch(() => {});
    return Promise.race([work, late]).finally(() => clearTimeout(timer));
  }

  private fallBack(error: unknown): void {
    if (this.down || this.closed) return;
    this.down = true;
    this.options.log.warn({ err: error }, FELL_BACK);
    this.scheduleProbe();
  }

  private scheduleProbe(): void {
    this.probing = setTimeout(() => {
      this.inTime(this.options.probe()).then(
        () => {
          if (this.closed) return;
          this.down = false;
          this.options.log.info({}, CAME_BACK);
        },
        () => {
          if (!this.closed) this.scheduleProbe();
        },
      );
    }, this.probeEveryMs);
    this.probing.unref();
  }
}

/** An AttemptStore counting in `shared` (Redis) unless `fallback` says it is down. */
export function fallbackAttemptStore(
  shared: AttemptStore,
  local: AttemptStore,
  fallback: StoreFallback,
): AttemptStore {
  return {
    acquire: (key, attempt, now) =>
      fallback.run(
        () => shared.acquire(key, attempt, now),
        () => local.acquire(key, attempt, now),
      ),
    // Ends go to both: an attempt may have begun in either. A failure kept in memory too means
    // an outage starts from what this process saw rather than from nothing.
    fail: (key, attempt, now) =>
      fallback.both(
        () => shared.fail(key, attempt, now),
        () => local.fail(key, attempt, now),
      ),
    release: (key, attempt) =>
      fallback.both(
        () => shared.release(key, attempt),
        () => local.release(key, attempt),
      ),
    reset: (key) =>
      fallback.both(
        () => shared.reset(key),
        () => local.reset(key),
      ),
  };
}

/** A LimitStore counting in `shared` (Redis) unless `fallback` says it is down. */
export function fallbackLimitStore(
  shared: LimitStore,
  local: LimitStore,
  fallback: StoreFallback,
): LimitStore {
  return {
    spend: (key, rate, now) =>
      fallback.run(
        () => shared.spend(key, rate, now),
        () => local.spend(key, rate, now),
      ),
    hold: (places, holder, now, holdMs) =>
      fallback.run(
        () => shared.hold(places, holder, now, holdMs),
        () => local.hold(places, holder, now, holdMs),
      ),
    held: (key, now) =>
      fallback.run(
        () => shared.held(key, now),
        () => local.held(key, now),
      ),
    // Renewing in memory while Redis is down puts every open socket of this process there, so
    // the caps hold per process during the outage; once back, Redis gets them all again.
    renew: (holds, now, holdMs) =>
      fallback.run(
        () => shared.renew(holds, now, holdMs),
        () => local.renew(holds, now, holdMs),
      ),
    unhold: (keys, holder) =>
      fallback.both(
        () => shared.unhold(keys, holder),
        () => local.unhold(keys, holder),
      ),
  };
}
