import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { WebSocket, WebSocketServer } from 'ws';
import type { AnswerCache } from '../lib/answer-cache.ts';
import { notFound, unauthorized } from '../lib/errors.ts';
import type { EventBus } from '../realtime/events.ts';

/** Requests that matched no route share one label, so probing random URLs cannot grow the series. */
export const UNMATCHED_ROUTE = '(unmatched)';

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const LAG_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];

export interface MetricsOptions {
  base: string;
  bus: EventBus;
  /**
   * The bearer token a scraper must send; without one the endpoint is not served at all (404):
   * its figures tell an outsider the site's load and routes.
   */
  token?: string;
  /** The public reads' answer cache, whose lookups are counted (hit or miss). */
  answers?: AnswerCache;
}

/**
 * Prometheus metrics at `{base}/metrics`: requests and latency by route pattern, open WebSockets
 * by endpoint, event-bus lag, and the process's own figures (memory, event loop, GC). Each app
 * has its own registry, so several apps in one process (tests) never mix their counts.
 */
async function metricsPlugin(app: FastifyInstance, { base, bus, token, answers }: MetricsOptions) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  if (answers?.enabled) {
    // Read off the cache when scraped: counting in the cache costs an increment, not a label lookup.
    new Counter({
      name: 'answer_cache_lookups_total',
      help: "Visitors' public reads looked up in the answer cache, by result (hit or miss)",
      labelNames: ['result'] as const,
      registers: [registry],
      collect() {
        this.reset();
        this.inc({ result: 'hit' }, answers.hits);
        this.inc({ result: 'miss' }, answers.misses);
      },
    });
  }

  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to finishing its answer, by method, route pattern and status',
    labelNames,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const sockets = new Gauge({
    name: 'websocket_connections_open',
    help: 'WebSocket connections this process holds, by endpoint (notifications or chat)',
    labelNames: ['endpoint'] as const,
    registers: [registry],
  });
  for (const endpoint of ['notifications', 'chat']) sockets.set({ endpoint }, 0);
  const busLag = new Histogram({
    name: 'event_bus_lag_seconds',
    help: 'Time from publishing a domain event to this process receiving it, by event type',
    labelNames: ['event'] as const,
    buckets: LAG_BUCKETS,
    registers: [registry],
  });

  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      method: request.method,
      // The pattern (/api/books/:id), never the raw URL: one series per route, not per book.
      route: request.routeOptions.url ?? UNMATCHED_ROUTE,
      status_code: String(reply.statusCode),
    };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
  });

  const stopLag = bus.subscribe((event, envelope) => {
    if (typeof envelope.sentAt !== 'number') return;
    // Processes on different hosts may disagree on the clock by a little; never report negative lag.
    busLag.observe({ event: event.type }, Math.max(0, Date.now() - envelope.sentAt) / 1000);
  });
  app.addHook('onClose', async () => {
    stopLag();
  });

  const endpointOf = (request: IncomingMessage) =>
    (request.url ?? '').startsWith(`${base}/chat/`) ? 'chat' : 'notifications';
  // The WebSocket server exists once the realtime plugin has registered, which is after this one.
  app.addHook('onReady', async () => {
    const server = (app as { websocketServer?: WebSocketServer }).websocketServer;
    server?.on('connection', (socket: WebSocket, request: IncomingMessage) => {
      const endpoint = endpointOf(request);
      sockets.inc({ endpoint });
      socket.once('close', () => sockets.dec({ endpoint }));
    });
  });

  app.get(`${base}/metrics`, { schema: { hide: true } }, async (request, reply) => {
    if (!token) throw notFound();
    if (!sameSecret(request.headers.authorization ?? '', `Bearer ${token}`))
      throw unauthorized('Send the metrics token as a bearer token');
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}

/** Compares in constant time, so the answer's timing tells nothing of the token. */
function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

export const metrics = fp(metricsPlugin, { name: 'inkwell-metrics' });
