import WebSocket from 'ws';
import { inBatches } from './api.ts';

export interface OpenedSockets {
  sockets: WebSocket[];
  /** Sockets that closed after opening (refused by the server, or dropped). */
  closed(): number;
  closeAll(): Promise<void>;
}

const OPEN_TIMEOUT_MS = 30_000;

function open(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    const timer = setTimeout(() => {
      socket.terminate();
      reject(
        new Error(`no open within ${OPEN_TIMEOUT_MS} ms: ${url.replace(/token=[^&]+/, 'token=…')}`),
      );
    }, OPEN_TIMEOUT_MS);
    socket.once('open', () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** Opens one socket per URL, `concurrency` handshakes at a time; fails if any does not open. */
export async function openSockets(
  urls: readonly string[],
  concurrency = 200,
): Promise<OpenedSockets> {
  let closedCount = 0;
  let sockets: WebSocket[] = [];
  try {
    sockets = await inBatches(urls, concurrency, async (url) => {
      const socket = await open(url);
      socket.once('close', () => closedCount++);
      // A late error (server gone) must not crash the benchmark; 'close' follows and is counted.
      socket.on('error', () => {});
      return socket;
    });
  } catch (error) {
    for (const socket of sockets) socket?.terminate();
    throw error;
  }
  return {
    sockets,
    closed: () => closedCount,
    async closeAll() {
      const done = sockets.map(
        (socket) =>
          new Promise<void>((resolve) => {
            if (socket.readyState === WebSocket.CLOSED) return resolve();
            socket.once('close', () => resolve());
            socket.terminate();
          }),
      );
      await Promise.all(done);
    },
  };
}
