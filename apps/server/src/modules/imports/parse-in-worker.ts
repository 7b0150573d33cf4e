import type { ImportFormat } from '@inkwell/contract';
import { startWorkerJob, transferableOf, type WorkerLimits } from '../../lib/worker-job.ts';
import {
  ImportFileError,
  type ParsedBook,
  type ParseOptions,
  type Progress,
} from './parsers/index.ts';

export interface WorkerRequest {
  bytes: Uint8Array;
  format: ImportFormat;
  options: ParseOptions;
}

export type WorkerReply =
  | { type: 'progress'; fraction: number; message: string }
  | { type: 'done'; book: ParsedBook }
  /** message: for the importer (null when the failure is ours, not the file's); detail: for the log. */
  | { type: 'failed'; message: string | null; detail: string };

export type ParseLimits = WorkerLimits;

export const DEFAULT_PARSE_LIMITS: ParseLimits = { timeoutMs: 120_000, maxHeapMb: 1024 };

/** Thrown for failures that are not the file's fault; `detail` goes to the log, never to the user. */
export class ParseCrash extends Error {
  readonly detail: string;
  constructor(detail: string) {
    super('The file could not be imported because of an unexpected error while reading it');
    this.detail = detail;
  }
}

export interface RunningParse {
  result: Promise<ParsedBook>;
  /** Stops the worker; the result rejects. */
  cancel(reason: string): void;
}

/**
 * Parses a file in a worker thread with a time limit and a heap limit, so a hostile or huge
 * file costs one worker, never the server: the main thread only receives messages.
 */
export function parseInWorker(
  request: WorkerRequest,
  onProgress: Progress,
  limits: ParseLimits = DEFAULT_PARSE_LIMITS,
): RunningParse {
  const job = startWorkerJob<ParsedBook>(new URL('./parse-worker.ts', import.meta.url), limits, {
    onMessage(message, { finish }) {
      const reply = message as WorkerReply;
      if (reply.type === 'progress') onProgress(reply.fraction, reply.message);
      else if (reply.type === 'done') finish(reply.book);
      else
        finish(
          reply.message !== null
            ? new ImportFileError(reply.message)
            : new ParseCrash(reply.detail),
        );
    },
    failure(trouble) {
      if (trouble.kind === 'timeout')
        return new ImportFileError(
          `Reading the file took longer than ${Math.round(limits.timeoutMs / 1000)} seconds`,
        );
      if (trouble.kind === 'out-of-memory')
        return new ImportFileError(
          'The file needs too much memory to read; it is too large or too complex',
        );
      return new ParseCrash(trouble.detail);
    },
  });
  job.post(request, transferableOf(request.bytes));
  return { result: job.result, cancel: (reason) => job.cancel(new ImportFileError(reason)) };
}
