import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.ts';
import { socketAdmission, socketSession } from './admission.ts';
import type { SessionSockets } from './session-sockets.ts';
import type { SocketQuota } from './socket-quota.ts';
import type { UserSockets } from './user-sockets.ts';

/** `{base}/ws?token=`: the signed-in user's live notifications. The stream is one-way; client frames are ignored. */
export const notificationSocketRoutes: FastifyPluginAsync<{
  ctx: AppContext;
  users: UserSockets;
  sessions: SessionSockets;
  quota: SocketQuota;
}> = async (app, { ctx, users, sessions, quota }) => {
  const admission = socketAdmission({ sessions, quota }, async (request) => {
    const session = await socketSession(ctx, request);
    return 'refusal' in session ? session : { session };
  });
  app.get('/ws', { websocket: true, preHandler: admission.preHandler }, (socket, request) => {
    const admitted = admission.take(socket, request);
    if (admitted) users.add(admitted.session.viewer.id, socket);
  });
};
