import crypto from 'node:crypto';
import { WS_CLOSE, type ChatErrorFrame, type ChatMessage } from '@inkwell/contract';
import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import { WebSocket } from 'ws';
import type { AppContext, Viewer } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { refuse, socketAdmission, socketViewer } from '../../realtime/admission.ts';
import type { ChatRooms } from '../../realtime/chat-rooms.ts';
import { sendFrame } from '../../realtime/sockets.ts';
import type { ChatHistory } from './chat-history.ts';
import { announcement, ChatLimiter, findRoom, readIncoming, REFUSED, type ConnectionLimits } from './chat.service.ts';

interface ChatDeps {
  ctx: AppContext;
  rooms: ChatRooms;
  history: ChatHistory;
}

/** `{base}/chat/{username}?token=`: the chat room of an author, for signed-in users. */
export const chatRoutes: FastifyPluginAsync<ChatDeps> = async (app, deps) => {
  const limiter = new ChatLimiter();
  const admission = socketAdmission(async (request) => {
    const viewer = await socketViewer(deps.ctx, request);
    if ('refusal' in viewer) return viewer;
    const { username } = request.params as { username: string };
    try {
      return { viewer, room: await findRoom(deps.ctx, username) };
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') return refuse(WS_CLOSE.notFound, 'No such author');
      throw error;
    }
  });

  app.get('/chat/:username', { websocket: true, preHandler: admission.preHandler }, (socket, request) => {
    const admitted = admission.take(socket, request);
    if (admitted) joinRoom(deps, limiter.open(admitted.viewer.id), socket, admitted.viewer, admitted.room, request.log);
  });
};

/**
 * One member's life in a room: listeners first (a client may speak the moment it is open), then
 * the history, then the join note to everyone; the leave note when the socket closes.
 */
function joinRoom(
  { ctx, rooms, history }: ChatDeps,
  limits: ConnectionLimits,
  socket: WebSocket,
  viewer: Viewer,
  room: string,
  log: FastifyBaseLogger,
) {
  const member = rooms.join(room, socket);
  let announced = false;
  // Lines of one connection are stored and published in the order they were sent.
  let tail = Promise.resolve();

  const tell = (detail: string) => sendFrame(socket, JSON.stringify({ type: 'error', detail } satisfies ChatErrorFrame));
  const refuseMessage = (detail: string) => {
    tell(detail);
    if (limits.recordRefusal()) socket.close(WS_CLOSE.policyViolation, 'Too many messages');
  };
  const say = (note: ChatMessage) => ctx.events.publish({ type: 'chat.message', room, ...note });

  socket.on('message', (data, isBinary) => {
    if (!limits.allowMessage()) return refuseMessage(REFUSED.tooFast);
    const incoming = readIncoming(data, isBinary);
    if (incoming.kind === 'refused') return refuseMessage(incoming.detail);
    if (incoming.kind === 'blank') return;
    const line = { id: crypto.randomUUID(), user: viewer.username, message: incoming.message };
    tail = tail.then(async () => {
      try {
        await history.append(room, line);
      } catch (error) {
        log.warn({ err: error, room }, 'chat line not stored');
        return tell(REFUSED.unavailable);
      }
      await ctx.events.publish({ type: 'chat.message', room, ...line });
    });
  });

  socket.once('close', () => {
    rooms.leave(member);
    limits.release();
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
    member.replay(lines.map(({ id, user, message }) => ({ id, payload: JSON.stringify({ user, message }) })));
    announced = true;
    await say(announcement(viewer.username, 'connected'));
  })();
}
