import { WS_CLOSE } from '@inkwell/contract';
import { CHAT_ACKS_QUERY } from '@inkwell/contract/constants';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import { perAddress } from '../../plugins/rate-limits.ts';
import { refuse, socketAdmission } from '../live/admission.ts';
import { joinRoom, type ChatDeps } from './chat-session.ts';
import { admitToRoom, ChatLimiter, JoinLimiter } from './chat.service.ts';

/**
 * `{base}/chat/{username}?ticket=` (or `?token=`): the chat room of an author, for signed-in users;
 * `&acks=1` asks for a sent frame per message that reaches the room (ChatSentFrame).
 */
export const chatRoutes: FastifyPluginAsync<ChatDeps> = async (app, deps) => {
  const limiter = new ChatLimiter(deps.ctx.limits.store);
  const joins = new JoinLimiter(deps.ctx.limits.store);
  const admission = socketAdmission(deps, async (request, session) => {
    // Each join replays the room's history and sends a note to every member: a connect/close
    // loop must not turn into a flood.
    if (!(await joins.allow(session.viewer.id)))
      return refuse(WS_CLOSE.tooMany, 'Joining too often: wait a little');
    const { username } = request.params as { username: string };
    try {
      const admitted = await admitToRoom(deps.ctx, deps.rooms, username, session.viewer);
      // A client gone before its socket joins (even during the reads above) ends the watch its
      // join would have ended.
      const connection = request.raw.socket;
      if (connection.destroyed) deps.rooms.unwatch(admitted.watch);
      else connection.once('close', () => deps.rooms.unwatch(admitted.watch));
      return admitted;
    } catch (error) {
      if (error instanceof AppError && error.code === 'forbidden')
        return refuse(WS_CLOSE.forbidden, error.message);
      if (!(error instanceof AppError && error.code === 'not_found')) throw error;
      return refuse(WS_CLOSE.notFound, 'No such author');
    }
  });

  app.get(
    '/chat/:username',
    {
      websocket: true,
      config: perAddress(deps.ctx.config.RATE_LIMIT_SOCKETS, 'live connections'),
      preHandler: admission.preHandler,
    },
    (socket, request) => {
      const admitted = admission.take(socket, request);
      if (!admitted) return;
      const { viewer } = admitted.session;
      const limits = limiter.open(viewer.id);
      const query = request.query as Record<string, string | undefined>;
      joinRoom(deps, {
        socket,
        viewer,
        room: admitted.room,
        muted: admitted.muted,
        watch: admitted.watch,
        limits,
        acks: query[CHAT_ACKS_QUERY] === '1',
        log: request.log,
      });
    },
  );
};
