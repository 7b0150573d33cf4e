import type { MessagePort } from 'node:worker_threads';
import { serveWorkerJobs } from '../../lib/worker-job.ts';
import { ImportFileError, parseBook } from './parsers/index.ts';
import type { WorkerReply, WorkerRequest } from './parse-in-worker.ts';

/**
 * Worker thread entry: parses each file it is given (one job at a time) and answers with the
 * book, or with the reason it cannot be imported. Runs off the main thread so a big book never
 * stalls the server's event loop. Keep this file's imports free of TypeScript-only syntax:
 * workers load it with Node's type stripping.
 */
serveWorkerJobs((job) => job.once('message', (request: WorkerRequest) => void parse(request, job)));

async function parse(request: WorkerRequest, job: MessagePort): Promise<void> {
  const reply = (message: WorkerReply, transfer: ArrayBuffer[] = []) =>
    job.postMessage(message, transfer);
  try {
    const book = await parseBook(
      request.bytes,
      request.format,
      request.options,
      (fraction, message) => reply({ type: 'progress', fraction, message }),
    );
    const transfer = book.cover ? [book.cover.bytes.buffer as ArrayBuffer] : [];
    reply({ type: 'done', book }, transfer);
  } catch (error) {
    reply({
      type: 'failed',
      message: error instanceof ImportFileError ? error.message : null,
      detail: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
  }
}
