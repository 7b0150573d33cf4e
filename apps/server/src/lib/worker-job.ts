import { Worker, type Transferable } from 'node:worker_threads';

/**
 * One job in a worker thread of its own, with a time limit and a heap limit: work that could
 * stall the event loop or exhaust memory (parsing an uploaded book, building an EPUB) costs one
 * worker, never the server. The main thread only exchanges messages with it.
 */

export interface WorkerLimits {
  timeoutMs: number;
  maxHeapMb: number;
}

/** Why a worker ended without finishing its job. */
export type WorkerTrouble =
  | { kind: 'timeout' }
  | { kind: 'out-of-memory' }
  /** It threw outside the job's own error handling, or exited; `detail` is for the log. */
  | { kind: 'crashed'; detail: string };

export interface WorkerJob<T> {
  /** Settles once: with what the job finished with, or its error. */
  result: Promise<T>;
  /** Sends the worker a message (transferred buffers move rather than copy). */
  post(message: unknown, transfer?: readonly Transferable[]): void;
  /** Stops the worker; the result rejects with `error`. */
  cancel(error: Error): void;
}

export interface WorkerJobHandlers<T> {
  /**
   * A message from the worker. Call `finish` with the outcome (an Error rejects) to end the job,
   * or `post` to answer it and keep going.
   */
  onMessage(
    message: unknown,
    job: Pick<WorkerJob<T>, 'post'> & { finish(outcome: T | Error): void },
  ): void;
  /** The error the job ends with when the worker cannot finish it. */
  failure(trouble: WorkerTrouble): Error;
}

/**
 * Starts `script` (a .ts file Node loads with type stripping, which is why tsconfig's
 * erasableSyntaxOnly refuses enums and parameter properties everywhere) in a worker thread.
 * The worker is terminated as soon as the job is settled, however it ends.
 */
export function startWorkerJob<T>(
  script: URL,
  limits: WorkerLimits,
  handlers: WorkerJobHandlers<T>,
): WorkerJob<T> {
  const worker = new Worker(script, {
    resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb },
  });
  let settle: { resolve: (value: T) => void; reject: (error: Error) => void } | null = null;
  const result = new Promise<T>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const finish = (outcome: T | Error) => {
    if (!settle) return;
    const { resolve, reject } = settle;
    settle = null;
    clearTimeout(timer);
    void worker.terminate();
    if (outcome instanceof Error) reject(outcome);
    else resolve(outcome);
  };
  const post = (message: unknown, transfer: readonly Transferable[] = []) => {
    if (settle) worker.postMessage(message, transfer);
  };
  const timer = setTimeout(() => finish(handlers.failure({ kind: 'timeout' })), limits.timeoutMs);
  worker.on('message', (message: unknown) => handlers.onMessage(message, { finish, post }));
  worker.on('error', (error: Error & { code?: string }) =>
    finish(
      handlers.failure(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? { kind: 'out-of-memory' }
          : { kind: 'crashed', detail: error.stack ?? error.message },
      ),
    ),
  );
  worker.on('exit', (code) =>
    finish(handlers.failure({ kind: 'crashed', detail: `worker exited with code ${code}` })),
  );
  return { result, post, cancel: (error) => finish(error) };
}

/** The buffer under `bytes`, for transfer when `bytes` spans all of it (else it is copied). */
export function transferableOf(bytes: Uint8Array): ArrayBuffer[] {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? [bytes.buffer as ArrayBuffer]
    : [];
}
