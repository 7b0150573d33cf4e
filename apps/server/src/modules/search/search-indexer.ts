import type { FastifyBaseLogger } from 'fastify';
import type { SearchEngine } from './search-engine.ts';

export interface SearchIndexerOptions {
  intervalMs: number;
  restMs?: number;
  log?: FastifyBaseLogger;
  /** Told after a round that changed the index: search answers may now differ. */
  onIndexed?: () => void;
}

/**
 * Indexes after the write (decisions 0021, 0024): every `intervalMs` it takes the pending books
 * and chapters, a batch per transaction, until none is left. Search therefore lags a change by at
 * most about one interval plus the time to index what is queued; a chapter autosaved a hundred
 * times in between is indexed once. On PostgreSQL every process runs
 * one, and an advisory lock gives one of them the turn at a time.
 *
 * A chapter this process indexed less than `restMs` ago rests until then (decision 0040): its
 * queued changes wait for a later round. A published chapter being edited is thus indexed about
 * every `restMs`, not after every autosave, while a chapter changed once is indexed at the next
 * round; search lags the text of a chapter in the middle of an edit by about `restMs` more.
 */
export class SearchIndexer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  /** Chapters this process indexed within `restMs`, with when, oldest first. */
  private readonly indexedAt = new Map<number, number>();
  private readonly engine: SearchEngine;
  private readonly options: SearchIndexerOptions;

  constructor(engine: SearchEngine, options: SearchIndexerOptions) {
    this.engine = engine;
    this.options = options;
  }

  start(): void {
    this.timer = setInterval(() => void this.round(true), this.options.intervalMs);
    this.timer.unref();
  }

  /**
   * Waits until every change queued so far is in the index, resting chapters included (tests,
   * and the import script).
   */
  async flush(): Promise<void> {
    for (;;) {
      await this.round(false);
      if ((await this.engine.countPending()) === 0) return;
      // Another process holds the turn (PostgreSQL); it is working on the queue.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** One round at a time per process: a slow round is not joined by the next tick's. */
  private round(rest: boolean): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.running ??= this.drain(rest).finally(() => (this.running = undefined));
    return this.running;
  }

  private async drain(rest: boolean): Promise<void> {
    let indexed = false;
    const resting = rest ? this.resting(Date.now()) : [];
    try {
      for (;;) {
        const round = await this.engine.indexPending(this.engine.indexBatch, resting);
        if (!round?.taken || this.stopped) return;
        indexed = true;
        const now = Date.now();
        for (const id of round.chapters) {
          // Deleted first, so the map stays in the order of the last indexing.
          this.indexedAt.delete(id);
          this.indexedAt.set(id, now);
          // Saved again while this round goes on, it waits for its rest too.
          if (rest && this.options.restMs) resting.push(id);
        }
        // Let requests in between two transactions.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } catch (error) {
      // The queue keeps what this round did not finish; the next round tries again.
      this.options.log?.error({ err: error }, 'search indexing failed');
    } finally {
      if (indexed) this.options.onIndexed?.();
    }
  }

  /** The chapters still resting at `now`; those whose rest is over are forgotten. */
  private resting(now: number): number[] {
    const restMs = this.options.restMs ?? 0;
    for (const [id, at] of this.indexedAt) {
      if (now - at < restMs) break;
      this.indexedAt.delete(id);
    }
    return [...this.indexedAt.keys()];
  }
}
