import { EventEmitter } from 'node:events';
import { WebSocket } from 'ws';

/** Just enough of a `ws` socket for rooms and chat members: events, a ready state, what it was sent. */
export class FakeSocket extends EventEmitter {
  readyState: number = WebSocket.OPEN;
  bufferedAmount = 0;
  sent: string[] = [];
  /** The code and reason it was closed with, if any. */
  closedWith: { code?: number; reason?: string } | null = null;
  send(data: string) {
    this.sent.push(data);
  }
  terminate() {
    this.readyState = WebSocket.CLOSED;
  }
  /** Closes it as `ws` does: the ready state first, then 'close' (once). */
  close(code?: number, reason?: string) {
    if (this.readyState === WebSocket.CLOSED) return;
    this.closedWith = { code, reason };
    this.readyState = WebSocket.CLOSED;
    this.emit('close');
  }
}
