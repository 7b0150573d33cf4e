import type { FastifyBaseLogger } from 'fastify';
import type { SearchEngine } from './search-engine.ts';

/**
 * Indexes after the write (decisions 0021, 0024): every `intervalMs` it takes the pending books
 * and chapters, a batch per transaction, until none is left. Search therefore lags a change by at
 * most about one interval plus the time to index what is queued; a chapter autosaved a hundred
 * times in between is indexed once. On PostgreSQL every process runs
 * one, and an advisory lock gives one of them the turn at a time.
 */
export class SearchIndexer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly engine: SearchEngine,
    private readonly options: {
      intervalMs: number;
      log?: FastifyBaseLogger;
      /** Told after a round that changed the index: search answers may now differ. */
      onIndexed?: () => void;
    },
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.round(), this.options.intervalMs);
    this.timer.unref();
  }

  /** Waits until every change queued so far is in the index (tests, and the import script). */
  async flush(): Promise<void> {
    for (;;) {
      await this.round();
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
  private round(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.running ??= this.drain().finally(() => (this.running = undefined));
    return this.running;
  }

  private async drain(): Promise<void> {
    let indexed = false;
    try {
      for (;;) {
        const taken = await this.engine.indexPending(this.engine.indexBatch);
        if (!taken || this.stopped) return;
        indexed = true;
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
}
