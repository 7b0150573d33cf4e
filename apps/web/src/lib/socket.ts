/** WebSocket close codes that mean "do not try again": the token is refused or the room is gone. */
const FINAL_CLOSE_CODES = new Set([4401, 4404]);
const MAX_BACKOFF_MS = 30_000;

export interface LiveSocket {
  send(data: string): boolean;
  close(): void;
}

export interface LiveSocketHandlers {
  onMessage(data: unknown): void;
  onStatus?(status: 'connecting' | 'open' | 'closed'): void;
}

/**
 * A socket that reconnects with backoff until closed by us or refused for good. Frames are parsed
 * as JSON; anything else is dropped.
 */
export function openLiveSocket(url: string, handlers: LiveSocketHandlers): LiveSocket {
  let socket: WebSocket | null = null;
  let stopped = false;
  let attempt = 0;
  let retry: ReturnType<typeof setTimeout> | undefined;

  const connect = () => {
    handlers.onStatus?.('connecting');
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => {
      attempt = 0;
      handlers.onStatus?.('open');
    };
    ws.onmessage = (event) => {
      try {
        handlers.onMessage(JSON.parse(String(event.data)));
      } catch {
        // not JSON: ignore
      }
    };
    ws.onclose = (event) => {
      socket = null;
      handlers.onStatus?.('closed');
      if (stopped || FINAL_CLOSE_CODES.has(event.code)) return;
      const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** attempt++);
      retry = setTimeout(connect, delay);
    };
  };
  connect();

  return {
    send(data) {
      if (socket?.readyState !== WebSocket.OPEN) return false;
      socket.send(data);
      return true;
    },
    close() {
      stopped = true;
      clearTimeout(retry);
      socket?.close(1000);
    },
  };
}
