import type { SocketTicket } from '@inkwell/contract';
import { isApiError, request } from './api.ts';
import { socketUrl } from './paths.ts';

/**
 * WebSocket close codes that mean "do not try again": the room's author blocked the user, or the
 * room is gone. A refused ticket (4401) is not one: a backend that died in the middle of an
 * upgrade has used the ticket up, and the load balancer's retry of that upgrade on another is
 * refused; the next connection asks for a fresh ticket, and a session that really ended is told
 * by that request's own 401.
 */
const FINAL_CLOSE_CODES = new Set([4403, 4404]);
const MAX_BACKOFF_MS = 30_000;
/**
 * A connection open this long has proved itself: the next loss starts the backoff again from a
 * second. Not at once on open: a server over its socket cap (4429) opens the socket and closes it
 * straight away, and a retry every second would never let it be.
 */
const SETTLED_AFTER_MS = 10_000;

export interface LiveSocket {
  send(data: string): boolean;
  close(): void;
}

/**
 * `connecting`: the first connection is being made; `open`; `reconnecting`: the connection was
 * lost (a server restarted, the network dropped) and another is planned or under way, which is
 * no failure of anyone's: behind a load balancer it lands on another process within seconds;
 * `closed`: for good (closed by us, or refused).
 */
export type LiveSocketStatus = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface LiveSocketHandlers {
  onMessage(data: unknown): void;
  onStatus?(status: LiveSocketStatus): void;
  /** The server refused the socket for good (a final close code), with its reason. */
  onRefused?(code: number, reason: string): void;
}

/**
 * A socket to `path` (`/ws`, `/chat/{username}`) as the signed-in user, that reconnects with
 * backoff until closed by us or refused for good. Each connection asks first for a single-use
 * ticket (POST /api/socket-tickets) and puts that in the URL, never the session token: socket
 * URLs end up in proxy logs. No ticket because the session is gone (401) is final. Frames are
 * parsed as JSON; anything else is dropped. `query` goes in the URL beside the ticket.
 */
export function openLiveSocket(
  path: string,
  handlers: LiveSocketHandlers,
  query: Record<string, string> = {},
): LiveSocket {
  let socket: WebSocket | null = null;
  let stopped = false;
  let attempt = 0;
  // Once a connection was open (or one attempt failed), further attempts are reconnections.
  let reconnecting = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let settling: ReturnType<typeof setTimeout> | undefined;

  const retryLater = () => {
    reconnecting = true;
    handlers.onStatus?.('reconnecting');
    const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** attempt++);
    retry = setTimeout(() => void connect(), delay);
  };

  const connect = async () => {
    handlers.onStatus?.(reconnecting ? 'reconnecting' : 'connecting');
    let ticket: string;
    try {
      ({ ticket } = await request<SocketTicket>('/api/socket-tickets', { method: 'POST' }));
    } catch (error) {
      if (stopped) return;
      if (isApiError(error, 401)) handlers.onStatus?.('closed');
      else retryLater();
      return;
    }
    if (stopped) return;
    const ws = new WebSocket(socketUrl(path, { ...query, ticket }));
    socket = ws;
    ws.onopen = () => {
      settling = setTimeout(() => (attempt = 0), SETTLED_AFTER_MS);
      handlers.onStatus?.('open');
    };
    ws.onmessage = (event) => {
      if (stopped) return;
      try {
        handlers.onMessage(JSON.parse(String(event.data)));
      } catch {
        // not JSON: ignore
      }
    };
    ws.onclose = (event) => {
      socket = null;
      clearTimeout(settling);
      // Closed by its owner, who no longer listens: a late word from this socket would land on
      // whatever the owner opened since (a chat's next room).
      if (stopped) return;
      if (FINAL_CLOSE_CODES.has(event.code)) {
        handlers.onRefused?.(event.code, event.reason);
        handlers.onStatus?.('closed');
        return;
      }
      retryLater();
    };
  };
  void connect();

  return {
    send(data) {
      if (socket?.readyState !== WebSocket.OPEN) return false;
      socket.send(data);
      return true;
    },
    close() {
      stopped = true;
      clearTimeout(retry);
      clearTimeout(settling);
      socket?.close(1000);
    },
  };
}
