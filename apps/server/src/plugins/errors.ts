import type { ErrorBody, ErrorCode } from '@inkwell/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors.ts';

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'validation',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'validation',
  406: 'validation',
  409: 'conflict',
  411: 'validation',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'unavailable',
};

// Connection failures to the database mean "try again later", not "we broke".
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTCONN',
  'EHOSTUNREACH',
  // A statement cancelled by its statement_timeout (search's pool): too busy to answer now.
  '57014',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
  'SQLITE_BUSY',
]);

function isUnavailable(error: { code?: unknown; message?: string }): boolean {
  return (
    (typeof error.code === 'string' && UNAVAILABLE_CODES.has(error.code)) ||
    // pg's messages for a connection lost mid-query, for a pool that cannot connect, and for the
    // ROLLBACK a transaction then attempts on its dead connection (which replaces the first error).
    /Connection terminated|timeout exceeded when trying to connect|encountered a connection error and is not queryable/i.test(
      error.message ?? '',
    )
  );
}

type Answer = { status: number; body: ErrorBody; headers?: Record<string, string> };

function answerFor(error: FastifyError | AppError): Answer {
  if (error instanceof AppError) {
    return {
      status: error.status,
      body: {
        detail: error.message,
        code: error.code,
        ...(error.field !== undefined && { field: error.field }),
      },
      headers: error.headers,
    };
  }
  if (error.validation) {
    // A malformed id in the path names nothing that exists: 404, as for an unknown id.
    if (error.validationContext === 'params') {
      return { status: 404, body: { detail: 'Not found', code: 'not_found' } };
    }
    const first = error.validation[0];
    const path = first?.instancePath?.replace(/^\//, '').replace(/\//g, '.');
    const message = first?.message ?? error.message;
    const detail = path ? `${path}: ${message}` : message;
    // The request field is the path's first step: a bad third tag is the `tags` field's fault.
    const field = path ? path.split('.')[0] : undefined;
    return { status: 400, body: { detail, code: 'validation', ...(field && { field }) } };
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const code = CODE_BY_STATUS[status] ?? 'validation';
    return { status, body: { detail: error.message, code } };
  }
  if (isUnavailable(error)) {
    return {
      status: 503,
      body: { detail: 'The service is briefly unavailable; please retry', code: 'unavailable' },
      headers: { 'retry-after': '2' },
    };
  }
  return { status: 500, body: { detail: 'Internal server error', code: 'internal' } };
}

/**
 * For Fastify's `frameworkErrors`: the router refuses a malformed URL encoding or an over-long
 * path parameter before any route or hook runs, so the error handler never sees it; it answers
 * the same {detail, code} here, with the request id and nosniff that hooks would have added.
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const answer = answerFor(error);
  return reply
    .status(answer.status)
    .header('x-request-id', request.id)
    .header('x-content-type-options', 'nosniff')
    .send(answer.body);
}

/**
 * The one error handler: every 4xx and 5xx leaves as {detail, code}, with `field` when the refusal
 * names the one request field at fault; a 5xx never leaks internals.
 */
async function errorsPlugin(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const answer = answerFor(error);
    if (answer.status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.debug({ err: error }, 'request refused');
    for (const [name, value] of Object.entries(answer.headers ?? {})) reply.header(name, value);
    return reply.status(answer.status).send(answer.body);
  });
}

export const errors = fp(errorsPlugin, { name: 'inkwell-errors' });
