import { Worker } from 'node:worker_threads';
import type { ImportFormat } from '@inkwell/contract';
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

export interface ParseLimits {
  timeoutMs: number;
  maxHeapMb: number;
}

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
  const worker = new Worker(new URL('./parse-worker.ts', import.meta.url), {
    resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb },
  });
  let settle: { resolve: (book: ParsedBook) => void; reject: (error: Error) => void } | null = null;
  const result = new Promise<ParsedBook>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const finish = (outcome: ParsedBook | Error) => {
    if (!settle) return;
    const { resolve, reject } = settle;
    settle = null;
    clearTimeout(timer);
    void worker.terminate();
    if (outcome instanceof Error) reject(outcome);
    else resolve(outcome);
  };
  const timer = setTimeout(
    () =>
      finish(
        new ImportFileError(
          `Reading the file took longer than ${Math.round(limits.timeoutMs / 1000)} seconds`,
        ),
      ),
    limits.timeoutMs,
  );
  worker.on('message', (message: WorkerReply) => {
    if (message.type === 'progress') onProgress(message.fraction, message.message);
    else if (message.type === 'done') finish(message.book);
    else
      finish(
        message.message !== null
          ? new ImportFileError(message.message)
          : new ParseCrash(message.detail),
      );
  });
  worker.on('error', (error: Error & { code?: string }) => {
    finish(
      error.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? new ImportFileError(
            'The file needs too much memory to read; it is too large or too complex',
          )
        : new ParseCrash(error.stack ?? error.message),
    );
  });
  worker.on('exit', (code) => finish(new ParseCrash(`parse worker exited with code ${code}`)));
  const bytes = request.bytes;
  worker.postMessage(
    request,
    bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
      ? [bytes.buffer as ArrayBuffer]
      : [],
  );
  return { result, cancel: (reason) => finish(new ImportFileError(reason)) };
}
