import type { Worker } from 'node:worker_threads';

/** How long a worker asked to close may take before it is terminated. */
const CLOSE_TIMEOUT_MS = 5_000;

/**
 * Waits until a worker that was asked to close (its own message, which lets it close what it
 * holds: a SQLite connection must be closed before its thread ends, decision 0038) has exited,
 * terminating it if it takes longer than CLOSE_TIMEOUT_MS. `exited` settles on its 'exit'.
 */
export async function awaitWorkerExit(worker: Worker, exited: Promise<void>): Promise<void> {
  const timer = setTimeout(() => void worker.terminate(), CLOSE_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}
