import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.ts';
import { socketAdmission, socketViewer } from './admission.ts';
import type { UserSockets } from './user-sockets.ts';

/** `{base}/ws?token=`: the signed-in user's live notifications. The stream is one-way; client frames are ignored. */
export const notificationSocketRoutes: FastifyPluginAsync<{
  ctx: AppContext;
  users: UserSockets;
}> = async (app, { ctx, users }) => {
  const admission = socketAdmission((request) => socketViewer(ctx, request));
  app.get('/ws', { websocket: true, preHandler: admission.preHandler }, (socket, request) => {
    const viewer = admission.take(socket, request);
    if (viewer) users.add(viewer.id, socket);
  });
};
