import { Worker } from 'node:worker_threads';
import { readWorkerCount, type Config } from '../../config.ts';
import type { ReadContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { awaitWorkerExit } from '../../lib/worker-exit.ts';
import { receivedError, type ReadReply, type ReadRequest } from './read-messages.ts';
import {
  inlineReads,
  type ReadAnswer,
  type ReadArgs,
  type ReadName,
  type Reads,
} from './read-services.ts';

/** What a read in flight on a worker that died answers: a 503 the reader may simply retry. */
const workerLost = () =>
  new AppError('unavailable', 'The server could not finish this read. Try again.', {
    'retry-after': '2',
  });

/**
 * The reads for this configuration (decision 0041): on READ_WORKERS threads, or here, on the
 * event loop, with the server's own handles when there are none.
 */
export function createReads(
  ctx: ReadContext,
  config: Config,
  onTrouble: (detail: string) => void,
): Reads {
  const size = readWorkerCount(config);
  return size === 0 ? inlineReads(ctx) : workerReads(config, size, onTrouble);
}

interface Slot {
  worker: Worker | null;
  /** Reads posted to this slot's worker and not yet answered, by id. */
  waiting: Map<number, { resolve(value: unknown): void; reject(error: Error): void }>;
  /** Settles when the worker has loaded and opened its connection, or has ended. */
  started: Promise<void>;
  exited: Promise<void>;
}

/**
 * Reads answered by `size` worker threads (read-worker.ts), each with its own read-only
 * connection: the server's event loop only parses, sends and serializes. A read goes to the
 * worker with the fewest reads waiting. Workers start at `warm()` (main.ts awaits it before it
 * listens) or at their first read (a test that never searches starts none); one that dies fails
 * its waiting reads with a 503 and is started again at the next.
 */
export function workerReads(
  config: Config,
  size: number,
  onTrouble: (detail: string) => void,
  // The worker's script; a test's stand-in may take its place.
  script = new URL('./read-worker.ts', import.meta.url),
): Reads {
  const slots: Slot[] = Array.from({ length: size }, () => ({
    worker: null,
    waiting: new Map(),
    started: Promise.resolve(),
    exited: Promise.resolve(),
  }));
  let nextId = 1;
  let closed = false;

  const start = (slot: Slot): Worker => {
    const worker = new Worker(script, { workerData: { config } });
    // Waiting reads do not keep the process alive; the server's sockets do.
    worker.unref();
    slot.worker = worker;
    slot.exited = new Promise((resolve) => worker.once('exit', () => resolve()));
    slot.started = new Promise((resolve) => {
      worker.once('message', () => resolve());
      worker.once('exit', () => resolve());
    });
    worker.on('message', (reply: ReadReply) => {
      if ('ready' in reply) return;
      const waiting = slot.waiting.get(reply.id);
      if (!waiting) return;
      slot.waiting.delete(reply.id);
      if ('error' in reply) waiting.reject(receivedError(reply.error));
      else waiting.resolve(reply.value);
    });
    const lost = (detail: string) => {
      if (slot.worker !== worker) return;
      slot.worker = null;
      if (!closed) onTrouble(detail);
      for (const { reject } of slot.waiting.values()) reject(workerLost());
      slot.waiting.clear();
    };
    worker.on('error', (error) => lost(`read worker failed: ${error.stack ?? error.message}`));
    worker.on('exit', (code) => lost(`read worker exited with code ${code}`));
    return worker;
  };

  return {
    run<K extends ReadName>(name: K, ...args: ReadArgs<K>): Promise<ReadAnswer<K>> {
      if (closed) return Promise.reject(workerLost());
      const slot = slots.reduce((best, s) => (s.waiting.size < best.waiting.size ? s : best));
      const worker = slot.worker ?? start(slot);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const request: ReadRequest = { id, name, args };
        // Throws, before anything waits, if the arguments cannot cross the thread.
        worker.postMessage(request);
        slot.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      });
    },
    async warm() {
      if (closed) return;
      for (const slot of slots) if (!slot.worker) start(slot);
      await Promise.all(slots.map((slot) => slot.started));
    },
    // Waits for every thread to end, a lost one too (it may still be exiting).
    async close() {
      closed = true;
      await Promise.all(
        slots.map(async (slot) => {
          const worker = slot.worker;
          if (!worker) return slot.exited;
          worker.postMessage({ close: true } satisfies ReadRequest);
          await awaitWorkerExit(worker, slot.exited);
        }),
      );
    },
  };
}
