import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';

// A proxy's id is kept so one id follows a call through every hop; anything longer or stranger
// than an ordinary id is replaced, so a client cannot flood or forge the logs with it.
const ACCEPTABLE_ID = /^[\w.:-]{1,128}$/;

/** Fastify's genReqId: the caller's X-Request-Id when it looks like an id, else a new UUID. */
export function requestIdFor(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && ACCEPTABLE_ID.test(given) ? given : crypto.randomUUID();
}

/** Echoes the request id on every answer, so a user's report can be matched with the log line. */
async function requestIdPlugin(app: FastifyInstance) {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
}

export const requestId = fp(requestIdPlugin, { name: 'inkwell-request-id' });
