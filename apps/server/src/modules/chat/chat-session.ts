import crypto from 'node:crypto';
import { CHAT_LIMITS, WS_CLOSE, type ChatErrorFrame, type ChatSentFrame } from '@inkwell/contract';
import type { FastifyBaseLogger } from 'fastify';
import { WebSocket } from 'ws';
import type { AppContext, Viewer } from '../../context.ts';
import type { AdmissionWatch, ChatRooms } from '../../realtime/chat-rooms.ts';
import type { SessionSockets } from '../../realtime/session-sockets.ts';
import type { SocketQuota } from '../../realtime/socket-quota.ts';
import { sendFrame } from '../../realtime/sockets.ts';
import type { ChatHistory } from './chat-history.ts';
import {
  announcement,
  readIncoming,
  recheckRoomLists,
  REFUSED,
  type ConnectionLimits,
} from './chat.service.ts';

export interface ChatDeps {
  ctx: AppContext;
  rooms: ChatRooms;
  history: ChatHistory;
  /** Where admitted sockets are tracked, so they close when their session ends. */
  sessions: SessionSockets;
  /** Sockets per user and per address, shared with the notification endpoint. */
  quota: SocketQuota;
}

interface Member {
  socket: WebSocket;
  viewer: Viewer;
  room: string;
  /**
   * Users the viewer muted when joining (ids): their lines (live and in history) are not sent.
   * Mutes and unmutes made while in the room apply at once (`user.listed` in live/delivery.ts).
   */
  muted: ReadonlySet<number>;
  /** Changes to the viewer's lists since `muted` was read (admitToRoom). */
  watch?: AdmissionWatch;
  limits: ConnectionLimits;
  /** The client asked for a sent frame for each of its messages that reaches the room. */
  acks: boolean;
  log: FastifyBaseLogger;
}

const SENT_FRAME = JSON.stringify({ type: 'sent' } satisfies ChatSentFrame);

/**
 * One member's life in a room: listeners first (a client may speak the moment it is open), then
 * the history, then the join note to everyone; the leave note when the socket closes.
 */
export function joinRoom(
  { ctx, rooms, history }: ChatDeps,
  { socket, viewer, room, muted, watch, limits, acks, log }: Member,
) {
  const member = rooms.join(room, socket, { userId: viewer.id, hidden: new Set(muted) }, watch);
  // A recheck (the bus back after an outage) began while `muted` was read, without this socket:
  // the read may lack changes whose events were lost, so the lists are read again.
  if (watch?.recheckBegan)
    recheckRoomLists(ctx, rooms, { afterOutage: false }).catch((error: unknown) =>
      log.warn({ err: error, room }, "could not recheck a joining member's lists"),
    );
  let announced = false;
  // Lines of one connection are stored and published in the order they were sent.
  let tail = Promise.resolve();

  const tell = (detail: string) =>
    sendFrame(socket, JSON.stringify({ type: 'error', detail } satisfies ChatErrorFrame));
  // Every message of a connection that asked for acks gets one answer: this, or an error frame.
  const acknowledge = () => {
    if (acks) sendFrame(socket, SENT_FRAME);
  };
  /** Counts a refusal against the flood limit; true when it closed the socket. */
  const strike = () => {
    const flooding = limits.recordRefusal();
    if (flooding) socket.close(WS_CLOSE.policyViolation, 'Too many messages');
    return flooding;
  };
  const refuseMessage = (detail: string) => {
    tell(detail);
    strike();
  };
  const say = (note: ReturnType<typeof announcement>) =>
    ctx.events.publish({ type: 'chat.message', room, ...note, system: true });

  // Frames whose turn has not come yet. A connection sending more than a burst of them faster
  // than the limit store answers is over the rate whatever it says: those are refused at once,
  // so a flood cannot queue without bound behind a slow store (it is closed after enough
  // strikes). The refusal is still told in its turn, after the answers to the frames before it:
  // a client that asked for acks matches answers to its messages by their order.
  let waiting = 0;

  socket.on('message', (data, isBinary) => {
    // Frames still arriving after a flood close are not heard.
    if (socket.readyState !== WebSocket.OPEN) return;
    if (waiting >= CHAT_LIMITS.burst) {
      if (!strike()) tail = tail.then(() => tell(REFUSED.tooFast));
      return;
    }
    waiting++;
    // Asked now, in the order the frames came (the store answers in that order); each frame is
    // then handled in turn, so lines are stored and published in the order they were sent.
    const allowed = limits.allowMessage();
    tail = tail.then(async () => {
      waiting--;
      const mayPost = await allowed;
      // Closed while the line waited its turn: a block, a logout or a suspension must not be
      // followed by the lines sent before it. (A client that closes the moment it sends may lose
      // a line still waiting on the limit store; a chat line is not worth the other risk.)
      if (socket.readyState !== WebSocket.OPEN) return;
      if (!mayPost) return refuseMessage(REFUSED.tooFast);
      const incoming = readIncoming(data, isBinary);
      if (incoming.kind === 'refused') return refuseMessage(incoming.detail);
      if (incoming.kind === 'blank') return acknowledge();
      const line = {
        id: crypto.randomUUID(),
        user: viewer.username,
        userId: viewer.id,
        message: incoming.message,
      };
      try {
        await history.append(room, line);
      } catch (error) {
        log.warn({ err: error, room }, 'chat line not stored');
        return tell(REFUSED.unavailable);
      }
      await ctx.events.publish({ type: 'chat.message', room, ...line });
      acknowledge();
    });
  });

  socket.once('close', () => {
    rooms.leave(member);
    if (announced) void say(announcement(viewer.username, 'disconnected'));
  });

  void (async () => {
    let lines: Awaited<ReturnType<ChatHistory['recent']>> = [];
    try {
      lines = await history.recent(room);
    } catch (error) {
      // An unreachable history still lets the member chat; the room just starts empty-handed.
      log.warn({ err: error, room }, 'chat history not available');
    }
    if (socket.readyState !== WebSocket.OPEN) return;
    member.replay(
      lines.map(({ id, user, userId, message }) => ({
        id,
        ...(userId !== undefined && { from: userId }),
        payload: JSON.stringify({ user, message }),
      })),
    );
    announced = true;
    await say(announcement(viewer.username, 'connected'));
  })();
}
