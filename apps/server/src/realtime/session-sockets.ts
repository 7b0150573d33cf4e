import { WS_CLOSE } from '@inkwell/contract';
import type { WebSocket } from 'ws';

/** The session a socket was opened with: its id and when it expires (epoch ms). */
export interface SocketSession {
  sessionId: number;
  expiresAt: number;
}

export const SESSION_ENDED_REASON = 'The session has ended';
export const SESSION_EXPIRED_REASON = 'The session has expired';

/**
 * How long an ended session id is remembered. A socket is admitted (the session checked in the
 * database) a moment before it is tracked here; a logout landing in between must still close it.
 */
const REMEMBER_ENDED_MS = 60_000;

/**
 * Every authenticated socket of this process (notification streams and chat members), by the
 * session it was opened with, so that a session's end reaches its sockets: logout and password
 * change through `end`, expiry through `closeExpired`. Either closes with 4401, the code a dead
 * token gets on connecting, so clients treat both alike: a token client signs in again; the web
 * app asks for a fresh ticket, whose 401 tells it the session is over.
 */
export class SessionSockets {
  private readonly bySession = new Map<number, { expiresAt: number; sockets: Set<WebSocket> }>();
  private readonly ended = new Map<number, number>();

  /** How many sessions have sockets open here. */
  get trackedSessions(): number {
    return this.bySession.size;
  }

  /** Tracks the socket until it closes; false (and the socket closed) if its session is already over. */
  track({ sessionId, expiresAt }: SocketSession, socket: WebSocket, now = Date.now()): boolean {
    if (this.ended.has(sessionId)) {
      socket.close(WS_CLOSE.unauthorized, SESSION_ENDED_REASON);
      return false;
    }
    if (expiresAt <= now) {
      socket.close(WS_CLOSE.unauthorized, SESSION_EXPIRED_REASON);
      return false;
    }
    let entry = this.bySession.get(sessionId);
    if (!entry) {
      entry = { expiresAt, sockets: new Set() };
      this.bySession.set(sessionId, entry);
    }
    const { sockets } = entry;
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      if (sockets.size === 0 && this.bySession.get(sessionId) === entry) {
        this.bySession.delete(sessionId);
      }
    });
    return true;
  }

  /** The sessions ended (logout, password change) on any process: their sockets here close. */
  end(sessionIds: Iterable<number>, now = Date.now()): void {
    for (const sessionId of sessionIds) {
      this.ended.set(sessionId, now);
      this.closeSession(sessionId, SESSION_ENDED_REASON);
    }
  }

  /** The sessions that have sockets open here. */
  sessionIds(): number[] {
    return [...this.bySession.keys()];
  }

  /**
   * After a look in the database: of the `checked` sessions, those not `stillThere` ended while
   * their event could not reach this process (the bus was down), and their sockets close now.
   */
  endMissing(checked: Iterable<number>, stillThere: ReadonlySet<number>, now = Date.now()): void {
    const gone = [...checked].filter((sessionId) => !stillThere.has(sessionId));
    this.end(gone, now);
  }

  /** Closes the sockets whose session expired; run on every heartbeat. */
  closeExpired(now = Date.now()): void {
    for (const [sessionId, { expiresAt }] of this.bySession) {
      if (expiresAt <= now) this.closeSession(sessionId, SESSION_EXPIRED_REASON);
    }
    for (const [sessionId, endedAt] of this.ended) {
      if (now - endedAt > REMEMBER_ENDED_MS) this.ended.delete(sessionId);
    }
  }

  private closeSession(sessionId: number, reason: string): void {
    const entry = this.bySession.get(sessionId);
    if (!entry) return;
    this.bySession.delete(sessionId);
    // The close handshake may take a while; meanwhile the socket is CLOSING, which sendFrame
    // and the chat's message handler already treat as gone.
    for (const socket of entry.sockets) socket.close(WS_CLOSE.unauthorized, reason);
  }
}
