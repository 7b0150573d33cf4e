import {
  MessageChannel,
  parentPort,
  Worker,
  type MessagePort,
  type Transferable,
} from 'node:worker_threads';

/**
 * Jobs in worker threads, one at a time per worker, with a time limit and a heap limit: work that
 * could stall the event loop or exhaust memory (parsing an uploaded book, building an EPUB) costs
 * a worker, never the server. The main thread only exchanges messages with it.
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
 * Workers kept between jobs, at most MAX_IDLE_WORKERS per script and heap limit. A worker that
 * answered its job with a result serves the next one instead of being torn down: every isolate
 * created and disposed is a chance for V8's rare crash in its process-wide registry of JIT pages
 * (`Check failed: jit_page.has_value()`, unfixed in Node 18–24), and starting one costs tens of
 * milliseconds besides. A job that ended in an error (the file's or ours), a timeout, a cancel, a
 * crash or running out of memory terminates its worker: it may still be busy, or in a state
 * nobody knows. Idle workers are unref'd (they never keep the process alive) and terminated after
 * IDLE_MS, which hands back the garbage their last job left in their heap.
 */
const MAX_IDLE_WORKERS = 2;
const IDLE_MS = 15_000;

interface IdleWorker {
  worker: Worker;
  timer: NodeJS.Timeout;
  onExit: () => void;
}

const idleWorkers = new Map<string, IdleWorker[]>();

function takeWorker(key: string, script: URL, limits: WorkerLimits): Worker {
  const idle = idleWorkers.get(key)?.pop();
  if (idle) {
    clearTimeout(idle.timer);
    idle.worker.off('exit', idle.onExit);
    idle.worker.ref();
    return idle.worker;
  }
  const worker = new Worker(script, {
    resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb },
  });
  // Always heard, so an error while no job listens (idle, or being terminated) never reaches the
  // process as an unhandled 'error' event; the worker then exits, and is forgotten.
  worker.on('error', () => {});
  return worker;
}

function keepWorker(key: string, worker: Worker): void {
  const idle = idleWorkers.get(key) ?? [];
  if (idle.length >= MAX_IDLE_WORKERS) {
    void worker.terminate();
    return;
  }
  const forget = () => {
    const at = idle.findIndex((entry) => entry.worker === worker);
    if (at >= 0) idle.splice(at, 1);
  };
  const timer = setTimeout(() => {
    forget();
    void worker.terminate();
  }, IDLE_MS);
  timer.unref();
  // An idle worker that dies on its own (it should not) is simply forgotten.
  const onExit = () => {
    clearTimeout(timer);
    forget();
  };
  worker.once('exit', onExit);
  worker.unref();
  idle.push({ worker, timer, onExit });
  idleWorkers.set(key, idle);
}

/**
 * Runs one job of `script` (a .ts file Node loads with type stripping, which is why tsconfig's
 * erasableSyntaxOnly refuses enums and parameter properties everywhere) in a worker thread,
 * an idle one when there is one. The script answers jobs with `serveWorkerJobs`; each job has a
 * message channel of its own, closed when the job is settled, so nothing a worker sends about one
 * job can reach the next.
 */
export function startWorkerJob<T>(
  script: URL,
  limits: WorkerLimits,
  handlers: WorkerJobHandlers<T>,
): WorkerJob<T> {
  const key = `${script.href}|${limits.maxHeapMb}`;
  const worker = takeWorker(key, script, limits);
  const channel = new MessageChannel();
  let settle: { resolve: (value: T) => void; reject: (error: Error) => void } | null = null;
  const result = new Promise<T>((resolve, reject) => {
    settle = { resolve, reject };
  });
  /** `reusable`: the worker finished the job itself, with a result, so it may serve another. */
  const end = (outcome: T | Error, reusable: boolean) => {
    if (!settle) return;
    const { resolve, reject } = settle;
    settle = null;
    clearTimeout(timer);
    channel.port1.close();
    worker.off('error', onError);
    worker.off('exit', onExit);
    if (reusable) keepWorker(key, worker);
    else void worker.terminate();
    if (outcome instanceof Error) reject(outcome);
    else resolve(outcome);
  };
  const finish = (outcome: T | Error) => end(outcome, !(outcome instanceof Error));
  const post = (message: unknown, transfer: readonly Transferable[] = []) => {
    if (settle) channel.port1.postMessage(message, transfer);
  };
  const onError = (error: Error & { code?: string }) =>
    end(
      handlers.failure(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? { kind: 'out-of-memory' }
          : { kind: 'crashed', detail: error.stack ?? error.message },
      ),
      false,
    );
  const onExit = (code: number) =>
    end(handlers.failure({ kind: 'crashed', detail: `worker exited with code ${code}` }), false);
  const timer = setTimeout(
    () => end(handlers.failure({ kind: 'timeout' }), false),
    limits.timeoutMs,
  );
  worker.on('error', onError);
  worker.on('exit', onExit);
  channel.port1.on('message', (message: unknown) => handlers.onMessage(message, { finish, post }));
  worker.postMessage({ job: channel.port2 } satisfies JobStart, [channel.port2]);
  return { result, post, cancel: (error) => end(error, false) };
}

/** What a worker receives for each job: the job's own end of its channel. */
interface JobStart {
  job: MessagePort;
}

/**
 * Worker side: calls `serve` with each job's port (its messages are the job's, and what is
 * posted on it goes to the job's handlers). Jobs come one at a time: a worker is only given a
 * new one after it answered the last.
 */
export function serveWorkerJobs(serve: (job: MessagePort) => void): void {
  if (!parentPort) throw new Error('serveWorkerJobs runs in a worker thread');
  parentPort.on('message', (message: JobStart) => serve(message.job));
}

/** The buffer under `bytes`, for transfer when `bytes` spans all of it (else it is copied). */
export function transferableOf(bytes: Uint8Array): ArrayBuffer[] {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? [bytes.buffer as ArrayBuffer]
    : [];
}
