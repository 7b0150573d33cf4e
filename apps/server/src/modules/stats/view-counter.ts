/**
 * Visitors' chapter views, counted in this process's memory and written in batches (issue 20:
 * counting must not slow reads). A view costs a Map and Set lookup; every `intervalMs`, when
 * `maxPending` views are waiting, and at shutdown, the views are handed to `write` in one batch.
 * While the database is too slow to keep up (a batch being written and another waiting), views
 * beyond `maxPending` are dropped.
 * A session seen twice before a flush is kept once; across flushes and processes the table's
 * primary key keeps it once.
 */
export interface ViewBatch {
  chapter_id: number;
  session: string;
}

export interface ViewCounterOptions {
  write(views: ViewBatch[]): Promise<void>;
  intervalMs: number;
  /** Views waiting at which a flush starts at once, so memory stays bounded under a flood. */
  maxPending?: number;
  log: { warn(details: object, message: string): void };
}

const DEFAULT_MAX_PENDING = 50_000;

export class ViewCounter {
  private pending = new Map<number, Set<string>>();
  private size = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Batches taken and not yet written (the one being written included). */
  private queued = 0;
  /** Flushes run one after another, so a batch never races the one before it. */
  private flushing: Promise<void> = Promise.resolve();
  private readonly options: ViewCounterOptions;

  constructor(options: ViewCounterOptions) {
    this.options = options;
  }

  /** Notes a view; written with the next batch. */
  add(chapterId: number, session: string): void {
    // Full while the database is behind (one batch being written, another waiting): the view is
    // dropped rather than letting memory grow without bound.
    if (this.size >= this.maxPending) return;
    let sessions = this.pending.get(chapterId);
    if (!sessions) {
      sessions = new Set();
      this.pending.set(chapterId, sessions);
    }
    if (sessions.has(session)) return;
    sessions.add(session);
    this.size++;
    if (this.size >= this.maxPending && this.queued < 2) void this.flush();
  }

  private get maxPending(): number {
    return this.options.maxPending ?? DEFAULT_MAX_PENDING;
  }

  /** Views counted and not yet handed to `write`. */
  get waiting(): number {
    return this.size;
  }

  /** Writes what is waiting; resolves when it (and any flush before it) is done. */
  flush(): Promise<void> {
    const batch = this.take();
    if (batch.length === 0) return this.flushing;
    this.queued++;
    this.flushing = this.flushing.then(async () => {
      try {
        await this.options.write(batch);
      } catch (error) {
        // Statistics, not records: a batch the database refused is dropped, never retried in a loop.
        this.options.log.warn({ err: error, views: batch.length }, 'chapter views not written');
      } finally {
        this.queued--;
      }
    });
    return this.flushing;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.queued < 2) void this.flush();
    }, this.options.intervalMs);
    // The timer does not keep the process alive; shutdown flushes through stop().
    this.timer.unref();
  }

  /** Stops the timer and writes what is left. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private take(): ViewBatch[] {
    const batch: ViewBatch[] = [];
    for (const [chapterId, sessions] of this.pending)
      for (const session of sessions) batch.push({ chapter_id: chapterId, session });
    this.pending = new Map();
    this.size = 0;
    return batch;
  }
}
