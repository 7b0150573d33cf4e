import crypto from 'node:crypto';
import zlib from 'node:zlib';
import fastJson from 'fast-json-stringify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { acceptsGzip, COMPRESS_FROM_BYTES, keepAnswer } from './read-cache.ts';

/**
 * Route options for hot JSON reads (docs/decisions/0010-fast-serialization-and-caching-headers.md):
 * - `serializerCompiler`: fast-json-stringify, compiled once per route and status from the same
 *   zod schema the contract declares (as JSON Schema), instead of a zod encode plus
 *   JSON.stringify on every answer. It writes exactly the schema's properties, as zod's strip did.
 * - `onSend`: a weak ETag on every 200, a 304 when the client already has it, and Cache-Control:
 *   visitors' answers may be kept by any cache but must be revalidated (a chapter may be edited at
 *   any moment); a signed-in viewer's answer, which may hold their drafts, only by their browser.
 *   Answers of 1 KB or more are gzipped for clients that accept it. A visitor's answer is kept
 *   in the answer cache (plugins/read-cache.ts), which sends it again until anything changes.
 */

const fastSerializer = {
  serializerCompiler: ({ schema }: { schema: unknown }) => {
    const stringify = fastJson(
      z.toJSONSchema(schema as z.ZodType, { io: 'output', target: 'draft-7' }) as object,
    );
    return (data: unknown) => stringify(data);
  },
};

/** For hot writes that answer a large object (the autosave answers the whole chapter). */
export const fastAnswer = fastSerializer;

export const publicRead = {
  ...fastSerializer,
  onSend: async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    const etag = `W/"${crypto.hash('sha1', payload, 'base64url')}"`;
    reply.header('etag', etag);
    reply.header('cache-control', request.viewer ? 'private, no-cache' : 'public, no-cache');
    // The same URL answers differently to a signed-in author (drafts): caches must tell them apart.
    const vary = reply.getHeader('vary');
    reply.header(
      'vary',
      `${vary ? `${String(vary)}, ` : ''}Authorization, Cookie, Accept-Encoding`,
    );
    if (!request.viewer) keepAnswer(request, reply, payload, etag);
    if (request.headers['if-none-match'] === etag) {
      reply.code(304);
      return '';
    }
    // A chapter is ~16 KB of JSON and a third of that gzipped; on a phone's link that is most of the wait.
    if (payload.length >= COMPRESS_FROM_BYTES && acceptsGzip(request.raw)) {
      reply.header('content-encoding', 'gzip');
      return zlib.gzipSync(payload, { level: 6 });
    }
    return payload;
  },
};
