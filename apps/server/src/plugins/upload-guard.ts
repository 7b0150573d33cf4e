import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route taking larger files than the default upload limit says so here. */
    maxUploadBytes?: number;
  }
}

/** Room for the part headers and boundaries around the one file of an upload. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

class LengthRequired extends Error {
  readonly statusCode = 411;
}

/**
 * Refuses an oversized upload before reading it. The multipart parser only notices the file
 * limit as it streams, and then reads the rest of the body anyway; a 50 MB (or endless) upload
 * would be received in full before its 413. Uploads must declare their length (browsers and
 * ordinary clients always do); one declared too large hears 413 at once, while what it still
 * sends is discarded up to the declared length (closing instead would make browsers report a
 * network error rather than the 413). An upload of unknown length is cut off.
 */
async function uploadGuardPlugin(app: FastifyInstance, { maxFileBytes }: { maxFileBytes: number }) {
  app.addHook('onRequest', async (request, reply) => {
    if (!request.headers['content-type']?.toLowerCase().startsWith('multipart/')) return;
    const limit =
      (request.routeOptions.config.maxUploadBytes ?? maxFileBytes) + MULTIPART_OVERHEAD_BYTES;
    const declared = request.headers['content-length'];
    if (declared === undefined) {
      reply.header('connection', 'close');
      throw new LengthRequired('An upload must declare its Content-Length');
    }
    if (Number(declared) > limit) {
      throw new AppError(
        'payload_too_large',
        `The file is too large: at most ${Math.floor(limit / (1024 * 1024))} MB`,
      );
    }
  });
}

export const uploadGuard = fp(uploadGuardPlugin, { name: 'inkwell-upload-guard' });
