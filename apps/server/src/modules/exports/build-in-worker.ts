import { AppError } from '../../lib/errors.ts';
import { startWorkerJob, type WorkerLimits } from '../../lib/worker-job.ts';
import type { EpubBook } from './epub-writer.ts';

/** Main thread → worker. */
export type EpubWorkerRequest =
  | { type: 'start'; book: EpubBook; maxBytes: number }
  /** The next chapters' sanitized HTML, in reading order. */
  | { type: 'chapters'; html: string[] }
  | { type: 'end' };

/** Worker → main thread. */
export type EpubWorkerReply =
  /** Ready for the next chapters (or the end). */
  | { type: 'more' }
  | { type: 'done'; bytes: Uint8Array }
  | { type: 'too-large' }
  | { type: 'failed'; detail: string };

export interface EpubBuildLimits extends WorkerLimits {
  /** The largest EPUB built; past it the build stops (EpubTooLarge). */
  maxBytes: number;
}

/** The EPUB would be larger than allowed (or need more memory than a build may have). */
export class EpubTooLarge extends AppError {
  constructor(maxBytes: number) {
    super(
      'payload_too_large',
      `This book is too large to export as one EPUB file (more than ${Number((maxBytes / (1024 * 1024)).toFixed(2))} MB)`,
    );
  }
}

/**
 * Builds an EPUB in a worker thread: the XHTML conversion and the compression run there, never
 * on the event loop that answers requests. The worker asks for chapters a batch at a time and
 * `nextChapters` reads them (null when there are no more), so neither thread ever holds the
 * book's whole text; only the finished file comes back.
 */
export function buildEpubInWorker(
  book: EpubBook,
  nextChapters: () => Promise<string[] | null>,
  limits: EpubBuildLimits,
): Promise<Buffer> {
  const job = startWorkerJob<Buffer>(new URL('./epub-worker.ts', import.meta.url), limits, {
    onMessage(message, { finish, post }) {
      const reply = message as EpubWorkerReply;
      if (reply.type === 'more') {
        nextChapters().then(
          (html) => post(html ? { type: 'chapters', html } : { type: 'end' }),
          (error: Error) => finish(error),
        );
      } else if (reply.type === 'done') {
        finish(Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset, reply.bytes.byteLength));
      } else if (reply.type === 'too-large') {
        finish(new EpubTooLarge(limits.maxBytes));
      } else {
        finish(new Error(`EPUB build failed: ${reply.detail}`));
      }
    },
    failure(trouble) {
      if (trouble.kind === 'out-of-memory') return new EpubTooLarge(limits.maxBytes);
      if (trouble.kind === 'timeout')
        return new AppError(
          'unavailable',
          'Building the EPUB took too long; please try again in a few minutes',
          { 'retry-after': '120' },
        );
      return new Error(`EPUB build crashed: ${trouble.detail}`);
    },
  });
  const start: EpubWorkerRequest = { type: 'start', book, maxBytes: limits.maxBytes };
  job.post(start);
  return job.result;
}
