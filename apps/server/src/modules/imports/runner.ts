import crypto from 'node:crypto';
import type { ImportFormat, ImportPlan } from '@inkwell/contract';
import { nowIso } from '../../lib/convert.ts';
import { removeImportedBook } from '../books/books.service.ts';
import * as jobs from './imports.repository.ts';
import {
  DEFAULT_PARSE_LIMITS,
  ParseCrash,
  parseInWorker,
  type ParseLimits,
  type RunningParse,
  type WorkerRequest,
} from './parse-in-worker.ts';
import { ImportFileError, type ParsedBook } from './parsers/index.ts';
import { chooseChapters } from './plan.ts';
import { saveParsedBook, type ImportDeps, type SavedBook } from './save-book.ts';

export interface ImportTask {
  jobId: number;
  userId: number;
  filename: string;
  format: ImportFormat;
  keepFrontMatter: boolean;
  /** The author's choices after a preview; null imports the proposal as it stands. */
  plan: ImportPlan | null;
  bytes: Uint8Array;
}

/** A file to read for a preview: parsed like an import, nothing stored. */
interface PreviewTask {
  request: WorkerRequest;
  resolve(book: ParsedBook): void;
  reject(error: Error): void;
}

/** Work waiting for a worker: an import job, or a preview someone is waiting on. */
type Work = { kind: 'import'; task: ImportTask } | { kind: 'preview'; task: PreviewTask };

interface Slot {
  parse: RunningParse | null;
  done: Promise<void>;
}

export interface RunnerOptions {
  /** Imports parsed at once by this process (each in its own worker thread). */
  concurrency: number;
  /** Imports waiting in this process's memory; beyond, new imports are refused until one starts. */
  maxQueued: number;
  /** How often this process proves its jobs alive. */
  heartbeatMs: number;
  /** A job unheard of for this long belongs to a process that died: it is failed. */
  staleMs: number;
  parseLimits: ParseLimits;
  log?: { error(object: object, message: string): void };
  /** Listeners for a caller that shows progress itself (the CLI); every report, not just those written. */
  events?: {
    progress?(jobId: number, fraction: number, message: string): void;
    finished?(
      jobId: number,
      outcome: { status: 'done' | 'failed'; message: string; bookId: number | null },
    ): void;
  };
}

export const DEFAULT_RUNNER_OPTIONS: RunnerOptions = {
  concurrency: 2,
  maxQueued: 10,
  heartbeatMs: 5_000,
  staleMs: 30_000,
  parseLimits: DEFAULT_PARSE_LIMITS,
};

export const INTERRUPTED =
  'The import was interrupted because the server stopped; please try again';
const PROGRESS_WRITE_MS = 250;

/**
 * Runs import jobs off the request path. Each process has its own runner, queue and id; job
 * rows carry the runner's id and heartbeat, so any process can tell a live job from an orphan
 * left by a process that died (and fail it) without touching the jobs of processes still alive.
 * Previews take their turn in the same queue and workers, so they share the process's limits.
 */
export class ImportRunner {
  readonly id = crypto.randomUUID();
  private readonly deps: ImportDeps;
  private readonly options: RunnerOptions;
  private readonly queue: Work[] = [];
  private readonly running = new Set<Slot>();
  private readonly timers: NodeJS.Timeout[] = [];
  private closed = false;

  constructor(deps: ImportDeps, options: Partial<RunnerOptions> = {}) {
    this.deps = deps;
    this.options = { ...DEFAULT_RUNNER_OPTIONS, ...options };
  }

  /** Fails orphaned jobs now (the server is starting), then keeps heartbeats and sweeps going. */
  async start(): Promise<void> {
    await this.sweep();
    const every = (ms: number, work: () => Promise<unknown>) => {
      const timer = setInterval(
        () =>
          void work().catch((error) =>
            this.options.log?.error({ err: error }, 'import runner upkeep failed'),
          ),
        ms,
      );
      timer.unref();
      this.timers.push(timer);
    };
    every(this.options.heartbeatMs, () => jobs.touchJobs(this.deps.db, this.id, nowIso()));
    every(Math.max(1_000, this.options.staleMs / 2), () => this.sweep());
  }

  hasRoom(): boolean {
    return !this.closed && this.queue.length < this.options.maxQueued;
  }

  enqueue(task: ImportTask): void {
    this.queue.push({ kind: 'import', task });
    this.pump();
  }

  /** Reads a file as an import would, for a preview: the parsed book, or the reason it cannot be read. */
  preview(request: WorkerRequest): Promise<ParsedBook> {
    return new Promise((resolve, reject) => {
      this.queue.push({ kind: 'preview', task: { request, resolve, reject } });
      this.pump();
    });
  }

  /** Fails every active job whose runner fell silent, and removes the half-made book it left. */
  async sweep(): Promise<number> {
    const before = new Date(Date.now() - this.options.staleMs).toISOString();
    let failed = 0;
    for (const job of await jobs.findStaleJobs(this.deps.db, before)) {
      if (await jobs.failStaleJob(this.deps.db, job.id, before, INTERRUPTED, nowIso())) {
        failed++;
        if (job.book_id !== null) await removeImportedBook(this.deps.db, job.book_id);
      }
    }
    return failed;
  }

  /** Stops taking work; jobs in hand stop at their next step and fail saying why, before the database closes. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    const waiting = this.queue.splice(0);
    for (const work of waiting) {
      if (work.kind === 'preview') {
        work.task.reject(new ImportFileError(INTERRUPTED));
        continue;
      }
      await jobs.finishJob(this.deps.db, work.task.jobId, {
        status: 'failed',
        message: INTERRUPTED,
        warnings: [],
        now: nowIso(),
      });
    }
    for (const slot of this.running) slot.parse?.cancel(INTERRUPTED);
    await Promise.all([...this.running].map((slot) => slot.done));
  }

  private pump(): void {
    while (!this.closed && this.running.size < this.options.concurrency && this.queue.length > 0) {
      const work = this.queue.shift()!;
      const slot: Slot = { parse: null, done: Promise.resolve() };
      this.running.add(slot);
      const done = work.kind === 'import' ? this.run(work.task, slot) : this.read(work.task, slot);
      slot.done = done.finally(() => {
        this.running.delete(slot);
        this.pump();
      });
    }
  }

  private async read(task: PreviewTask, slot: Slot): Promise<void> {
    slot.parse = parseInWorker(task.request, () => {}, this.options.parseLimits);
    try {
      task.resolve(await slot.parse.result);
    } catch (error) {
      if (error instanceof ParseCrash)
        this.options.log?.error({ err: error, detail: error.detail }, 'import preview failed');
      task.reject(error as Error);
    }
  }

  private async run(task: ImportTask, slot: Slot): Promise<void> {
    const { db } = this.deps;
    let pending: Promise<void> | null = null;
    let lastWrite = 0;
    // Progress is advisory: at most a few writes a second, never more than one in flight.
    const events = this.options.events;
    const progress = (fraction: number, message: string) => {
      events?.progress?.(task.jobId, fraction, message);
      if (pending || Date.now() - lastWrite < PROGRESS_WRITE_MS) return;
      lastWrite = Date.now();
      pending = jobs
        .updateProgress(db, task.jobId, {
          progress: Math.round(Math.min(1, fraction) * 1000),
          message,
          now: nowIso(),
        })
        .catch(() => {})
        .finally(() => {
          pending = null;
        });
    };
    try {
      await jobs.updateProgress(db, task.jobId, {
        status: 'running',
        progress: 0,
        message: 'Reading the file',
        now: nowIso(),
      });
      slot.parse = parseInWorker(
        { bytes: task.bytes, format: task.format, options: { filename: task.filename } },
        (fraction, message) => progress(0.6 * fraction, message),
        this.options.parseLimits,
      );
      const parsed = await slot.parse.result;
      slot.parse = null;
      if (this.closed) throw new ImportFileError(INTERRUPTED);
      const chosen = chooseChapters(parsed.chapters, {
        keepFrontMatter: task.keepFrontMatter,
        plan: task.plan,
      });
      const book = { ...parsed, chapters: chosen.chapters };
      const doneMessage = (saved: SavedBook) =>
        `Imported "${saved.title}" with ${saved.chapterCount} chapter${saved.chapterCount === 1 ? '' : 's'}`;
      const saved = await saveParsedBook(this.deps, task.userId, book, task.filename, {
        onBook: (bookId) => jobs.setJobBook(db, task.jobId, bookId),
        progress: (fraction, message) => progress(0.6 + 0.4 * fraction, message),
        stopReason: () => (this.closed ? INTERRUPTED : null),
        // A progress write still in flight then finds the job ended, and leaves it alone.
        finish: (handle, saved) =>
          jobs.finishJob(handle, task.jobId, {
            status: 'done',
            message: doneMessage(saved),
            progress: 1000,
            chapterCount: saved.chapterCount,
            sourceTitle: parsed.title,
            sourceAuthor: parsed.author,
            warnings: [...parsed.warnings, ...chosen.warnings, ...saved.warnings],
            now: nowIso(),
          }),
      });
      await pending;
      const message = doneMessage(saved);
      events?.finished?.(task.jobId, { status: 'done', message, bookId: saved.bookId });
    } catch (error) {
      await pending;
      if (!(error instanceof ImportFileError)) {
        this.options.log?.error(
          { err: error, detail: error instanceof ParseCrash ? error.detail : undefined },
          'import failed',
        );
      }
      const message =
        error instanceof ImportFileError || error instanceof ParseCrash
          ? error.message
          : 'The import failed because of an unexpected error; please try again';
      await jobs
        .finishJob(db, task.jobId, { status: 'failed', message, warnings: [], now: nowIso() })
        .catch(() => {});
      events?.finished?.(task.jobId, { status: 'failed', message, bookId: null });
    }
  }
}
