import crypto from 'node:crypto';
import { FILTERED_HIDDEN_HEADER } from '@inkwell/contract/constants';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { compressible, gzip, type AnswerCache, type CachedAnswer } from '../lib/answer-cache.ts';
import { ifNoneMatchLists } from '../lib/etag.ts';
import type { DomainEvent, EventBus } from '../realtime/events.ts';
import { SESSION_COOKIE } from './auth.ts';
import { REQUEST_ID_HEADER } from './request-id.ts';

/**
 * Public reads and the answer cache (docs/decisions/0013-answer-cache-for-public-reads.md).
 *
 * A route declares `config: { publicRead: true }` (plugins/public-read.ts) when its answer to a
 * visitor is the same for every visitor. Its 200 answers then carry a weak ETag, answer
 * If-None-Match with 304, say how caches may keep them, and are gzipped from 1 KB. A visitor's
 * answer is also kept in memory and sent again to the next visitor who asks, from the first hook
 * of the request, until a domain event says that something visitors see changed (`book.changed`,
 * `author.changed`, `chapter.published`, `search.indexed`) here or on another process, or until it is
 * READ_CACHE_MAX_AGE_SECONDS old. Rankings that move with reading and following (popular books,
 * home authors) are therefore at most that old.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The answer to a visitor is the same for every visitor: ETag, 304, gzip and the answer cache. */
    publicRead?: boolean;
    /** A public read whose kept answers only its scope's event drops, besides every other change. */
    answerScope?: AnswerScope;
  }
  interface FastifyInstance {
    answerCache: AnswerCache | null;
  }
}

/** Kept answers that only some changes drop (besides every change of everything). */
export type AnswerScope = 'comments' | 'search';

/**
 * Events after which a visitor may see something else, and what they drop: every kept answer,
 * or only one scope's.
 * - A comment written, edited or deleted changes comment reads, not chapter reads or book lists;
 *   so does a block (`user.listed`), which hides the blocked user's comments on the blocker's
 *   books. (A mute changes nothing a visitor sees; telling the two apart is not worth a rule.)
 * - The search indexer's round (`search.indexed`, about a second after a change that already
 *   dropped everything) changes search answers only.
 */
const DROPS: Partial<Record<DomainEvent['type'], 'everything' | AnswerScope>> = {
  'book.changed': 'everything',
  'author.changed': 'everything',
  'chapter.published': 'everything',
  'search.indexed': 'search',
  'comments.changed': 'comments',
  'user.listed': 'comments',
};

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
 * A visitor's plain read: no token of any kind, and no Origin (cross-origin answers carry CORS
 * headers that depend on it). Anyone else is answered afresh.
 */
function isVisitorRead(request: FastifyRequest): boolean {
  const { headers } = request;
  return (
    request.method === 'GET' &&
    headers.authorization === undefined &&
    headers.origin === undefined &&
    !headers.cookie?.includes(SESSION_COOKIE_PREFIX)
  );
}

const acceptsGzip = (request: FastifyRequest): boolean =>
  /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));

/** The query parameters a route reads, from its querystring schema (zod object), sorted. */
const queryKeysBySchema = new WeakMap<object, readonly string[]>();
function knownQueryKeys(request: FastifyRequest): readonly string[] {
  const schema = request.routeOptions.schema?.querystring as
    { shape?: Record<string, unknown> } | undefined;
  if (!schema) return [];
  let keys = queryKeysBySchema.get(schema);
  if (!keys) {
    keys = Object.keys(schema.shape ?? {}).sort();
    queryKeysBySchema.set(schema, keys);
  }
  return keys;
}

/**
 * What a kept answer is filed under: the path and the parameters the route reads, in one order.
 * A parameter the route ignores changes nothing in the answer, so it makes no new entry (else
 * anyone could fill the cache, or miss it on purpose, with `?x=1`, `?x=2`, ...).
 */
function answerKey(request: FastifyRequest): string {
  const url = request.raw.url ?? request.url;
  const mark = url.indexOf('?');
  const path = (mark === -1 ? url : url.slice(0, mark)).replace(/(.)\/+$/, '$1');
  const query = request.query as Record<string, unknown>;
  const parts = knownQueryKeys(request)
    .filter((key) => query[key] !== undefined)
    .map((key) => `${key}=${encodeURIComponent(JSON.stringify(query[key]))}`);
  return parts.length > 0 ? `${path}?${parts.join('&')}` : path;
}

/**
 * A visitor's public read as it arrived: its key (from the query as sent: validation later
 * replaces it with defaults and transforms) and the cache generation then (its answer is kept
 * only if that is still current).
 */
const arrivals = new WeakMap<FastifyRequest, { key: string; generation: number }>();
/** Requests answered from the cache: their answer is already final. */
const servedKept = new WeakSet<FastifyRequest>();

function sendKept(
  cache: AnswerCache,
  request: FastifyRequest,
  reply: FastifyReply,
  answer: CachedAnswer,
) {
  servedKept.add(request);
  for (let i = 0; i < answer.headers.length; i += 2)
    reply.header(answer.headers[i]!, answer.headers[i + 1]);
  if (ifNoneMatchLists(request.headers['if-none-match'], answer.etag))
    return reply.code(304).send();
  if (!answer.compressed) return reply.send(answer.stored);
  if (!acceptsGzip(request)) return reply.send(cache.plainBody(answer));
  reply.header('content-encoding', 'gzip');
  return reply.send(answer.stored);
}

/** Keeps a visitor's answer; answers the kept entry, or undefined when it is not kept. */
function keep(
  cache: AnswerCache,
  request: FastifyRequest,
  reply: FastifyReply,
  body: string,
): CachedAnswer | undefined {
  const arrival = arrivals.get(request);
  if (arrival === undefined || request.viewer) return undefined;
  const headers: string[] = [];
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value === undefined) continue;
    if (name === 'set-cookie') return undefined;
    if (PER_RESPONSE_HEADERS.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.push(name, String(one));
  }
  return cache.set(
    {
      key: arrival.key,
      route: request.routeOptions.url ?? request.url,
      scope: request.routeOptions.config?.answerScope,
      headers,
      body: Buffer.from(body),
      etag: String(reply.getHeader('etag')),
    },
    arrival.generation,
  );
}

export interface ReadCacheOptions {
  cache: AnswerCache;
  bus: EventBus;
}

/**
 * The answer cache's door: registered first, so that a kept answer is sent before the other
 * plugins' request hooks (CORS, cookies, rate limits, auth) run; none of them has anything to do
 * for a visitor's plain read. Also empties the cache when a domain event says so.
 */
async function readCachePlugin(app: FastifyInstance, { cache, bus }: ReadCacheOptions) {
  app.decorate('answerCache', cache.enabled ? cache : null);

  if (cache.enabled) {
    const changed = (event: DomainEvent) => {
      const drops = DROPS[event.type];
      if (drops === 'everything') cache.invalidate();
      else if (drops) cache.invalidateScope(drops);
    };
    // A write here empties the cache before its author hears back; other processes hear of it
    // through the bus (their own writes they have already seen).
    const stopObserving = bus.observe(changed);
    const stopListening = bus.subscribe((event, envelope) => {
      if (envelope.origin !== bus.origin) changed(event);
    });
    app.addHook('onClose', async () => {
      stopObserving();
      stopListening();
    });

    app.addHook('onRequest', async (request, reply) => {
      if (!request.routeOptions.config?.publicRead || !isVisitorRead(request)) return;
      const key = answerKey(request);
      arrivals.set(request, { key, generation: cache.generation });
      const answer = cache.get(key);
      if (answer) return sendKept(cache, request, reply, answer);
    });
  }
}

/**
 * What a public read's 200 answer carries (ETag and 304, Cache-Control, Vary, gzip), and the
 * keeping of a visitor's answer. Registered after the plugins whose send hooks set headers
 * (security headers, auth's no-store), so that a kept answer has the headers a fresh one has.
 */
async function publicReadsPlugin(app: FastifyInstance, { cache }: { cache: AnswerCache }) {
  // Only a read may say so: a write's answer must get no ETag, no 304 and no shareable
  // Cache-Control. Checked as each route is declared, so a mistaken one stops the server's start.
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (route.config?.publicRead && methods.some((method) => method !== 'GET' && method !== 'HEAD'))
      throw new Error(`${methods.join(', ')} ${route.url} cannot be a public read: it is a write`);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.routeOptions.config?.publicRead || servedKept.has(request)) return payload;
    if (reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    // The hidden count travels beside the body (plugins/filtered-list.ts) and is part of what
    // the answer says: a 304 for the same body would leave the browser showing an old count.
    const hidden = reply.getHeader(FILTERED_HIDDEN_HEADER);
    const tagged = hidden === undefined ? payload : `${payload}\n${String(hidden)}`;
    const etag = `W/"${crypto.hash('sha1', tagged, 'base64url')}"`;
    reply.header('etag', etag);
    // Any cache may keep a visitor's answer but must revalidate it (a chapter may be edited at
    // any moment); a signed-in viewer's, which may hold their drafts, only their browser.
    reply.header('cache-control', request.viewer ? 'private, no-cache' : 'public, no-cache');
    const vary = reply.getHeader('vary');
    reply.header(
      'vary',
      `${vary ? `${String(vary)}, ` : ''}Authorization, Cookie, Accept-Encoding`,
    );
    const kept = cache.enabled ? keep(cache, request, reply, payload) : undefined;
    if (ifNoneMatchLists(request.headers['if-none-match'], etag)) {
      reply.code(304);
      return '';
    }
    // A chapter is ~16 KB of JSON and a third of that gzipped; on a phone's link that is most of the wait.
    // A kept answer was compressed once, as it was kept, for this client and every later one.
    const compressed = kept ? kept.compressed : compressible(payload);
    if (compressed && acceptsGzip(request)) {
      reply.header('content-encoding', 'gzip');
      return kept ? kept.stored : gzip(payload);
    }
    return payload;
  });
}

export const readCache = fp(readCachePlugin, { name: 'inkwell-read-cache' });
export const publicReads = fp(publicReadsPlugin, { name: 'inkwell-public-reads' });
