import { parentPort } from 'node:worker_threads';
import { ImportFileError, parseBook } from './parsers/index.ts';
import type { WorkerReply, WorkerRequest } from './parse-in-worker.ts';

/**
 * Worker thread entry: parses one file and answers with the book, or with the reason it cannot
 * be imported. Runs off the main thread so a big book never stalls the server's event loop.
 * Keep this file's imports free of TypeScript-only syntax: workers load it with Node's type stripping.
 */
const port = parentPort;
if (!port) throw new Error('parse-worker.ts must run as a worker thread');

port.once('message', async (request: WorkerRequest) => {
  const reply = (message: WorkerReply, transfer: ArrayBuffer[] = []) =>
    port.postMessage(message, transfer);
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
});
