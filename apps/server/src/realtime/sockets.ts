import { WebSocket, type WebSocketServer } from 'ws';
import { WS_CLOSE } from '@inkwell/contract';

/** Hard cap of one incoming frame; beyond it `ws` closes the socket (1009). Chat checks 8 KB itself. */
export const SOCKET_MAX_PAYLOAD = 64 * 1024;

/** A client this far behind on reading is not coming back: drop it rather than buffer without end. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/** Sends a serialized frame to an open socket; a socket that stopped reading is terminated. */
export function sendFrame(socket: WebSocket, data: string): void {
  if (socket.readyState !== WebSocket.OPEN) return;
  if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
    socket.terminate();
    return;
  }
  socket.send(data);
}

/**
 * Pings every socket each interval; one that did not answer the previous ping is terminated,
 * which fires its 'close' handlers and so removes it from its user and its room. `onBeat` runs
 * once per interval too, for other periodic checks of the open sockets.
 */
export function startHeartbeat(
  server: WebSocketServer,
  intervalMs: number,
  onBeat: () => void = () => {},
): () => void {
  const answered = new WeakSet<WebSocket>();
  const onConnection = (socket: WebSocket) => {
    answered.add(socket);
    socket.on('pong', () => answered.add(socket));
  };
  server.on('connection', onConnection);
  const timer = setInterval(() => {
    for (const socket of server.clients) {
      if (!answered.has(socket)) {
        socket.terminate();
        continue;
      }
      answered.delete(socket);
      socket.ping();
    }
    onBeat();
  }, intervalMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    server.off('connection', onConnection);
  };
}

/**
 * Shutdown: every client hears 1001 "going away" (so it reconnects to another process later);
 * those that do not finish the closing handshake within `graceMs` are cut.
 */
export async function closeAllGoingAway(server: WebSocketServer, graceMs = 2_000): Promise<void> {
  const sockets = [...server.clients];
  const closed = sockets.map(
    (socket) =>
      new Promise<void>((resolve) => {
        if (socket.readyState === WebSocket.CLOSED) return resolve();
        socket.once('close', () => resolve());
        socket.close(WS_CLOSE.goingAway, 'Server shutting down');
      }),
  );
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all(closed),
    new Promise((resolve) => {
      timer = setTimeout(resolve, graceMs);
    }),
  ]);
  clearTimeout(timer);
  for (const socket of sockets) if (socket.readyState !== WebSocket.CLOSED) socket.terminate();
}
