import { EventEmitter } from 'node:events';
import { WebSocket } from 'ws';

/** Just enough of a `ws` socket for rooms and chat members: events, a ready state, what it was sent. */
export class FakeSocket extends EventEmitter {
  readyState: number = WebSocket.OPEN;
  bufferedAmount = 0;
  sent: string[] = [];
  send(data: string) {
    this.sent.push(data);
  }
  terminate() {
    this.readyState = WebSocket.CLOSED;
  }
  /** Closes it as `ws` does: the ready state first, then 'close' (once). */
  close() {
    if (this.readyState === WebSocket.CLOSED) return;
    this.readyState = WebSocket.CLOSED;
    this.emit('close');
  }
}
