import { serveWorkerJobs, transferableOf } from '../../lib/worker-job.ts';
import type { EpubWorkerReply, EpubWorkerRequest } from './build-in-worker.ts';
import { EpubWriter } from './epub-writer.ts';
import { htmlToXhtml } from './xhtml.ts';
import { ZipWriter } from './zip.ts';

/**
 * Worker thread entry: builds an EPUB per job (one job at a time, each with its own writer) from
 * the chapters the main thread sends a batch at a time, converting each to XHTML and compressing
 * it here, and answers with the file, or stops as soon as it grows past the size allowed. Keep
 * this file's imports free of TypeScript-only syntax: workers load it with Node's type stripping.
 */
serveWorkerJobs((job) => {
  const reply = (message: EpubWorkerReply, transfer: ArrayBuffer[] = []) =>
    job.postMessage(message, transfer);
  let epub: EpubWriter | null = null;
  job.on('message', (request: EpubWorkerRequest) => {
    try {
      if (request.type === 'start') {
        epub = start(request, reply);
        reply({ type: 'more' });
      } else if (request.type === 'chapters') {
        for (const html of request.html) epub!.addChapter(htmlToXhtml(html));
        reply({ type: 'more' });
      } else {
        epub!.end();
      }
    } catch (error) {
      reply({
        type: 'failed',
        detail: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
    }
  });
});

function start(
  request: Extract<EpubWorkerRequest, { type: 'start' }>,
  reply: (message: EpubWorkerReply, transfer?: ArrayBuffer[]) => void,
): EpubWriter {
  const zip = new ZipWriter(new Date(request.book.modified));
  const chunks: Buffer[] = [];
  let size = 0;
  let stopped = false;
  zip.output.on('data', (chunk: Buffer) => {
    if (stopped) return;
    size += chunk.length;
    if (size > request.maxBytes) {
      stopped = true;
      reply({ type: 'too-large' });
      return;
    }
    chunks.push(chunk);
  });
  zip.output.on('end', () => {
    if (stopped) return;
    const bytes = Buffer.concat(chunks, size);
    reply({ type: 'done', bytes }, transferableOf(bytes));
  });
  zip.output.on('error', (error: Error) =>
    reply({ type: 'failed', detail: error.stack ?? error.message }),
  );
  return new EpubWriter(request.book, zip);
}
