import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.ts';
import { perAddress } from '../../plugins/rate-limits.ts';
import { socketAdmission } from './admission.ts';
import type { SessionSockets } from '../../realtime/session-sockets.ts';
import type { SocketQuota } from '../../realtime/socket-quota.ts';
import type { UserSockets } from '../../realtime/user-sockets.ts';

/** `{base}/ws?ticket=` (or `?token=`): the signed-in user's live notifications. The stream is one-way; client frames are ignored. */
export const notificationSocketRoutes: FastifyPluginAsync<{
  ctx: AppContext;
  users: UserSockets;
  sessions: SessionSockets;
  quota: SocketQuota;
}> = async (app, { ctx, users, sessions, quota }) => {
  // A signed-in user needs nothing more to hear their notifications.
  const admission = socketAdmission({ ctx, sessions, quota }, async () => ({}));
  const config = perAddress(ctx.config.RATE_LIMIT_SOCKETS, 'live connections');
  app.get(
    '/ws',
    { websocket: true, config, preHandler: admission.preHandler },
    (socket, request) => {
      const admitted = admission.take(socket, request);
      if (admitted) users.add(admitted.session.viewer.id, socket);
    },
  );
};
