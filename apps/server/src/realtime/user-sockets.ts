import type { WebSocket } from 'ws';
import { sendFrame } from './sockets.ts';

/** The notification sockets held by this process, by user: one user may have many tabs open. */
export class UserSockets {
  private readonly byUser = new Map<number, Set<WebSocket>>();

  /** Registers the socket until it closes. */
  add(userId: number, socket: WebSocket): void {
    let sockets = this.byUser.get(userId);
    if (!sockets) {
      sockets = new Set();
      this.byUser.set(userId, sockets);
    }
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      if (sockets.size === 0 && this.byUser.get(userId) === sockets) this.byUser.delete(userId);
    });
  }

  /** Sends one serialized frame to every local socket of the given users; answers how many got it. */
  send(userIds: Iterable<number>, data: string): number {
    let sent = 0;
    for (const userId of userIds) {
      const sockets = this.byUser.get(userId);
      if (!sockets) continue;
      for (const socket of sockets) {
        sendFrame(socket, data);
        sent++;
      }
    }
    return sent;
  }
}
