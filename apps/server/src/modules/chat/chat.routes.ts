import { WS_CLOSE } from '@inkwell/contract';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import { refuse, socketAdmission, socketSession } from '../../realtime/admission.ts';
import { joinRoom, type ChatDeps } from './chat-session.ts';
import { ChatLimiter, findRoom } from './chat.service.ts';

/** `{base}/chat/{username}?token=`: the chat room of an author, for signed-in users. */
export const chatRoutes: FastifyPluginAsync<ChatDeps> = async (app, deps) => {
  const limiter = new ChatLimiter();
  const admission = socketAdmission(deps.sessions, async (request) => {
    const session = await socketSession(deps.ctx, request);
    if ('refusal' in session) return session;
    const { username } = request.params as { username: string };
    try {
      return { session, room: await findRoom(deps.ctx, username) };
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'not_found')) throw error;
      return refuse(WS_CLOSE.notFound, 'No such author');
    }
  });

  app.get(
    '/chat/:username',
    { websocket: true, preHandler: admission.preHandler },
    (socket, request) => {
      const admitted = admission.take(socket, request);
      if (!admitted) return;
      const { viewer } = admitted.session;
      const limits = limiter.open(viewer.id);
      joinRoom(deps, { socket, viewer, room: admitted.room, limits, log: request.log });
    },
  );
};
