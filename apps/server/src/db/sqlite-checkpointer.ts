import { Worker } from 'node:worker_threads';
import { awaitWorkerExit } from '../lib/worker-exit.ts';

/**
 * WAL pages the main connection lets pile up before it checkpoints by itself, as SQLite does by
 * default every 1,000: only if the worker falls far behind (or is gone). About 40 MB.
 */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 10_000;

/** How often the worker checkpoints unasked, for writes that do not tell it (migrations, imports). */
const CHECKPOINT_INTERVAL_MS = 1_000;

export interface Checkpointer {
  /** A transaction committed: the WAL has new pages to copy into the database file. */
  committed(): void;
  /**
   * Asks the worker to close its connection and end. Resolves once its thread has exited: a
   * process must not end with the worker's connection still open (Node would then tear the
   * thread down around the native SQLite binding, which is where such exits have crashed).
   */
  close(): Promise<void>;
}

/**
 * Copies SQLite's WAL back into the database file on a worker thread of its own (decision 0038).
 * By default the connection that commits does it, every 1,000 pages, inside that COMMIT: on the
 * event loop, with two fsyncs. A worker with its own connection checkpoints instead, right after
 * each group commit (a PASSIVE checkpoint: it neither waits for the writer nor stops it), so the
 * WAL stays short and the next writer starts it over from the beginning.
 *
 * One request at a time is in flight; commits that arrive meanwhile ask for one more after it.
 */
export function startCheckpointer(filename: string): Checkpointer {
  const worker = new Worker(new URL('./sqlite-checkpoint-worker.ts', import.meta.url), {
    workerData: { filename, intervalMs: CHECKPOINT_INTERVAL_MS },
  });
  // The worker never keeps the process alive; closing the database stops it.
  worker.unref();
  let busy = false;
  let again = false;
  let closed = false;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('message', () => {
    busy = false;
    if (again && !closed) {
      again = false;
      busy = true;
      worker.postMessage('checkpoint');
    }
  });
  // A worker that died leaves checkpoints to the main connection (FALLBACK_AUTOCHECKPOINT_PAGES).
  worker.on('error', () => (closed = true));
  return {
    committed() {
      if (closed) return;
      if (busy) {
        again = true;
        return;
      }
      busy = true;
      worker.postMessage('checkpoint');
    },
    async close() {
      if (!closed) {
        closed = true;
        worker.postMessage('close');
      }
      await awaitWorkerExit(worker, exited);
    },
  };
}
