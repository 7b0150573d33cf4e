import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { WebSocket, type ClientOptions } from 'ws';

/** Starts the app on a random local port and answers its ws:// base address. */
export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

export interface Closed {
  code: number;
  reason: string;
}

/** A received frame: notification, chat line or error frame. */
export interface Frame {
  type?: string;
  user?: string;
  message?: string;
  [field: string]: unknown;
}

/** A real `ws` client that keeps every message it receives until a test takes it. */
export interface TestSocket {
  ws: WebSocket;
  /** The headers of the server's 101 answer (a load balancer may name the process in them). */
  headers: IncomingHttpHeaders;
  /** The next message (parsed JSON) that matches, waiting up to `timeoutMs` (15 s: a bound for "never came", generous for a busy CI machine); earlier non-matching ones stay queued. */
  next<T = Frame>(match?: (frame: Frame) => boolean, timeoutMs?: number): Promise<T>;
  /** Waits `ms`, then answers (and consumes) the messages that arrived and match; a test expects this to be empty. */
  drain(ms: number, match?: (frame: Frame) => boolean): Promise<Frame[]>;
  send(data: string | Buffer): void;
  /** Resolves when the server (or the client) closed the socket. */
  closed: Promise<Closed>;
  close(): Promise<Closed>;
}

const open = new Set<TestSocket>();

/** How the server closed the socket; fails if it is still open after `ms` (a bound on waiting, not a speed test). */
export function closing(socket: TestSocket, ms = 10_000): Promise<Closed> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    socket.closed.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`socket still open after ${ms} ms`)), ms);
    }),
  ]);
}

export function connect(url: string, options: ClientOptions = {}): Promise<TestSocket> {
  const ws = new WebSocket(url, options);
  const queue: Frame[] = [];
  const waiters = new Set<() => void>();
  ws.on('message', (data) => {
    queue.push(JSON.parse(data.toString()));
    for (const wake of [...waiters]) wake();
  });
  const closed = new Promise<Closed>((resolve) => {
    ws.on('close', (code, reason) => {
      open.delete(socket);
      for (const wake of [...waiters]) wake();
      resolve({ code, reason: reason.toString() });
    });
  });

  const take = (match: (frame: Frame) => boolean) => {
    const index = queue.findIndex(match);
    return index === -1 ? undefined : queue.splice(index, 1);
  };

  const socket: TestSocket = {
    ws,
    headers: {},
    next(match = () => true, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const found = take(match);
        if (found) return resolve(found[0] as never);
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `no matching message within ${timeoutMs} ms; queued: ${JSON.stringify(queue)}`,
            ),
          );
        }, timeoutMs);
        function check() {
          const hit = take(match);
          if (!hit && ws.readyState === WebSocket.CLOSED) {
            clearTimeout(timer);
            waiters.delete(check);
            reject(
              new Error(
                `socket closed without a matching message; queued: ${JSON.stringify(queue)}`,
              ),
            );
          }
          if (!hit) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(hit[0] as never);
        }
        waiters.add(check);
      });
    },
    async drain(ms, match = () => true) {
      await new Promise((resolve) => setTimeout(resolve, ms));
      const hits = queue.filter(match);
      for (const hit of hits) queue.splice(queue.indexOf(hit), 1);
      return hits;
    },
    send: (data) => ws.send(data),
    closed,
    close() {
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close();
      return closed;
    },
  };
  open.add(socket);

  ws.once('upgrade', (res) => (socket.headers = res.headers));
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(socket));
    ws.once('unexpected-response', (_req, res) => {
      open.delete(socket);
      reject(new Error(`upgrade refused: ${res.statusCode}`));
    });
    ws.once('error', (error) => {
      open.delete(socket);
      reject(error);
    });
  });
}

/** Closes every socket a test left open; call it in afterEach/afterAll so nothing hangs. */
export async function closeAllSockets(): Promise<void> {
  await Promise.all([...open].map((socket) => socket.close()));
}
