import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifyServerFactory,
} from 'fastify';
import fp from 'fastify-plugin';
import type { AnswerCache } from '../lib/answer-cache.ts';
import type { EventBus } from '../realtime/events.ts';
import { SESSION_COOKIE } from './auth.ts';
import { REQUEST_ID_HEADER, requestIdFor } from './request-id.ts';

/**
 * The answer cache's two doors (docs/decisions/0013-answer-cache-for-public-reads.md):
 * - the front door, a node:http handler in front of Fastify, answers a visitor's GET from the
 *   cache when it can, before any routing, hook or database work;
 * - the back door, `keepAnswer`, called by public reads (plugins/public-read.ts) as their
 *   answer goes out, keeps what a visitor was sent.
 * Any write request that may have changed what readers see empties the cache, on this process
 * at once and on the others through the event bus.
 */

/** The cache generation when the request reached the front door; absent for injected requests. */
const ARRIVAL = Symbol('answer cache generation at arrival');
type ArrivedRequest = IncomingMessage & { [ARRIVAL]?: number };

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Headers that belong to one response, never to a kept answer. */
const PER_RESPONSE_HEADERS = new Set([
  REQUEST_ID_HEADER,
  'content-length',
  'content-encoding',
  'set-cookie',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);
const SESSION_COOKIE_PREFIX = `${SESSION_COOKIE}=`;

/**
 * A visitor's plain read: no token of any kind, and no Origin (cross-origin answers carry
 * CORS headers that depend on it). Anyone else goes through the whole app.
 */
function isVisitorRead(request: IncomingMessage): boolean {
  const { headers } = request;
  return (
    request.method === 'GET' &&
    headers.authorization === undefined &&
    headers.origin === undefined &&
    !headers.cookie?.includes(SESSION_COOKIE_PREFIX)
  );
}

export const acceptsGzip = (request: IncomingMessage): boolean =>
  /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));

/** Answers of at least this many bytes go gzipped to clients that accept it. */
export const COMPRESS_FROM_BYTES = 1024;

/** Told of every answer the front door sends (metrics, logs). */
export type ServedListener = (
  answer: { route: string; statusCode: number; requestId: string; url: string },
  seconds: number,
) => void;

export interface FrontDoor {
  serverFactory: FastifyServerFactory;
  onServed(listener: ServedListener): void;
}

/**
 * A node:http server whose handler sends kept answers itself and hands everything else to
 * Fastify. It applies Fastify's own server settings (timeouts, keep-alive), as Fastify does for
 * the server it would have made.
 */
export function createFrontDoor(cache: AnswerCache): FrontDoor {
  const listeners: ServedListener[] = [];

  function sendKept(request: IncomingMessage, response: ServerResponse): boolean {
    const answer = cache.get(request.url ?? '');
    if (!answer) return false;
    const started = performance.now();
    const requestId = requestIdFor(request);
    let statusCode = 200;
    if (request.headers['if-none-match'] === answer.etag) {
      statusCode = 304;
      response.writeHead(304, [...answer.headers, REQUEST_ID_HEADER, requestId]);
      response.end();
    } else {
      const gzip = answer.body.length >= COMPRESS_FROM_BYTES && acceptsGzip(request);
      const body = gzip ? cache.gzipped(answer) : answer.body;
      const headers = [
        ...answer.headers,
        REQUEST_ID_HEADER,
        requestId,
        'content-length',
        String(body.length),
      ];
      if (gzip) headers.push('content-encoding', 'gzip');
      response.writeHead(200, headers);
      response.end(body);
    }
    const seconds = (performance.now() - started) / 1000;
    const served = { route: answer.route, statusCode, requestId, url: answer.key };
    for (const listener of listeners) listener(served, seconds);
    return true;
  }

  const serverFactory: FastifyServerFactory = (handler, options) => {
    const server = http.createServer(
      (options.http ?? {}) as http.ServerOptions,
      (request: ArrivedRequest, response) => {
        if (request.method === 'GET' && cache.enabled) {
          request[ARRIVAL] = cache.generation;
          if (isVisitorRead(request) && sendKept(request, response)) return;
        }
        handler(request, response);
      },
    );
    server.keepAliveTimeout = options.keepAliveTimeout as number;
    server.requestTimeout = options.requestTimeout as number;
    server.setTimeout(options.connectionTimeout as number);
    if ((options.maxRequestsPerSocket as number) > 0)
      server.maxRequestsPerSocket = options.maxRequestsPerSocket as number;
    return server;
  };

  return { serverFactory, onServed: (listener) => listeners.push(listener) };
}

declare module 'fastify' {
  interface FastifyInstance {
    answerCache: AnswerCache | null;
  }
}

/**
 * Keeps a public read's answer, when a visitor asked through the front door and nothing
 * about the answer is personal. `headers` are the answer's final headers.
 */
export function keepAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  body: string,
  etag: string,
): void {
  const cache = request.server.answerCache;
  const arrival = (request.raw as ArrivedRequest)[ARRIVAL];
  if (!cache || arrival === undefined || request.viewer || !isVisitorRead(request.raw)) return;
  const headers: string[] = [];
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value === undefined) continue;
    if (name === 'set-cookie') return;
    if (PER_RESPONSE_HEADERS.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.push(name, String(one));
  }
  cache.set(
    {
      key: request.raw.url ?? request.url,
      route: request.routeOptions.url ?? request.url,
      headers,
      body: Buffer.from(body),
      etag,
    },
    arrival,
  );
}

/** Write requests whose route found that readers see nothing new (a draft's autosave). */
const invisibleWrites = new WeakSet<FastifyRequest>();

/**
 * For a write that changed nothing a visitor can see, such as an author's autosave of a draft
 * chapter (the most frequent write of all): the kept answers stay. The route decides, by the
 * rules of its domain; when in doubt it says nothing and the cache is emptied.
 */
export function leavesPublicReadsUnchanged(request: FastifyRequest): void {
  invisibleWrites.add(request);
}

export interface ReadCacheOptions {
  cache: AnswerCache;
  frontDoor: FrontDoor;
  bus: EventBus;
  /** Whether other processes share the database (Redis bus): tell them about our writes. */
  crossProcess: boolean;
}

async function readCachePlugin(
  app: FastifyInstance,
  { cache, frontDoor, bus, crossProcess }: ReadCacheOptions,
) {
  app.decorate('answerCache', cache.enabled ? cache : null);
  if (!cache.enabled) return;

  let announceScheduled = false;
  const announce = () => {
    announceScheduled = false;
    void bus.publish({ type: 'reads.changed' });
  };
  const changed = () => {
    cache.invalidate();
    // One announcement per turn of the event loop, however many writes it finished.
    if (crossProcess && !announceScheduled) {
      announceScheduled = true;
      setImmediate(announce);
    }
  };

  // onSend runs before the answer leaves, even when the client has gone: once a writer hears
  // back, no process of ours that has heard of it still answers from before the write. A 4xx
  // changed nothing; any other outcome may have (a 5xx after a commit).
  app.addHook('onSend', (request, reply, payload, done) => {
    const status = reply.statusCode;
    if (
      !SAFE_METHODS.has(request.method) &&
      (status < 400 || status >= 500) &&
      !invisibleWrites.has(request)
    )
      changed();
    done(null, payload);
  });

  const stop = bus.subscribe((event, envelope) => {
    if (event.type === 'reads.changed' && envelope.origin !== bus.origin) cache.invalidate();
  });
  app.addHook('onClose', async () => {
    stop();
  });

  logServedAnswers(frontDoor, app.log);
}

/** Kept answers are logged like the app's own ("request completed"), when info is on. */
function logServedAnswers(frontDoor: FrontDoor, log: FastifyBaseLogger) {
  if (!['info', 'debug', 'trace'].includes(log.level)) return;
  frontDoor.onServed((served, seconds) =>
    log.info(
      {
        reqId: served.requestId,
        req: { method: 'GET', url: served.url },
        res: { statusCode: served.statusCode },
        responseTime: seconds * 1000,
        cache: 'hit',
      },
      'request completed',
    ),
  );
}

export const readCache = fp(readCachePlugin, { name: 'inkwell-read-cache' });
