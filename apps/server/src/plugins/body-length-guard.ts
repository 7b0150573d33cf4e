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
 * Refuses a body that declares more than its route takes, before reading any of it, and keeps the
 * connection: the answer is 413 at once, and what the client still sends is discarded up to the
 * declared length. Closing instead (what Fastify's body parser does when it meets the limit, and
 * what the multipart parser would do after reading the whole file) resets a connection that still
 * has unread data in it, and a client still writing then sees EPIPE or a reset rather than the 413
 * (browsers report a network error).
 *
 * Uploads must declare their length (browsers and ordinary clients always do), so that a 50 MB or
 * endless upload is never received before its answer; one of unknown length is cut off with 411.
 * Other bodies of unknown length are left to the parser's own limit.
 */
async function bodyLengthGuardPlugin(
  app: FastifyInstance,
  { maxFileBytes }: { maxFileBytes: number },
) {
  app.addHook('onRequest', async (request, reply) => {
    const declared = request.headers['content-length'];
    const upload = request.headers['content-type']?.toLowerCase().startsWith('multipart/');
    if (upload && declared === undefined) {
      reply.header('connection', 'close');
      throw new LengthRequired('An upload must declare its Content-Length');
    }
    const limit = upload
      ? (request.routeOptions.config.maxUploadBytes ?? maxFileBytes) + MULTIPART_OVERHEAD_BYTES
      : request.routeOptions.bodyLimit;
    if (declared !== undefined && limit !== undefined && Number(declared) > limit) {
      const what = upload ? 'The file' : 'The request body';
      throw new AppError(
        'payload_too_large',
        `${what} is too large: at most ${Math.floor(limit / (1024 * 1024))} MB`,
      );
    }
  });
}

export const bodyLengthGuard = fp(bodyLengthGuardPlugin, { name: 'inkwell-body-length-guard' });
