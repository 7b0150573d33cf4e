import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppContext } from '../../context.ts';
import type { ChatHistory } from '../chat/chat-history.ts';
import { sessionsStillThere } from '../accounts/accounts.service.ts';
import { chatRoutes } from '../chat/chat.routes.ts';
import { recheckRoomLists } from '../chat/chat.service.ts';
import { ChatRooms } from '../../realtime/chat-rooms.ts';
import { deliverEvents } from './delivery.ts';
import { notificationSocketRoutes } from './notification-socket.ts';
import { SessionSockets } from '../../realtime/session-sockets.ts';
import { SocketQuota } from '../../realtime/socket-quota.ts';
import { closeAllGoingAway, SOCKET_MAX_PAYLOAD, startHeartbeat } from '../../realtime/sockets.ts';
import { UserSockets } from '../../realtime/user-sockets.ts';

export interface RealtimeOptions {
  ctx: AppContext;
  chatHistory: ChatHistory;
  base: string;
}

/** The two WebSocket endpoints, the sockets this process holds, and their feed from the event bus. */
async function realtimePlugin(app: FastifyInstance, { ctx, chatHistory, base }: RealtimeOptions) {
  const users = new UserSockets();
  const rooms = new ChatRooms();
  const sessions = new SessionSockets();
  // One quota for both endpoints: a user's notification and chat sockets count together.
  const quota = new SocketQuota(ctx.limits.store, {
    perUser: ctx.config.WS_MAX_SOCKETS_PER_USER,
    perAddress: ctx.config.WS_MAX_SOCKETS_PER_ADDRESS,
    heartbeatMs: ctx.config.WS_HEARTBEAT_MS,
  });
  let stopHeartbeat = () => {};

  await app.register(websocket, {
    options: { maxPayload: SOCKET_MAX_PAYLOAD },
    // Runs first on app.close(): clients hear 1001 "going away" while the bus is still up, so
    // chat rooms on other processes still get the leave notes.
    preClose: async function (this: FastifyInstance) {
      stopHeartbeat();
      await closeAllGoingAway(this.websocketServer);
      await new Promise<void>((resolve) => this.websocketServer.close(() => resolve()));
    },
  });
  // Each beat also closes the sockets whose session expired (a token is checked only when a
  // socket opens, and an expired session sends no event), and renews the open sockets' places
  // in the quota, which lapse otherwise.
  stopHeartbeat = startHeartbeat(app.websocketServer, ctx.config.WS_HEARTBEAT_MS, () => {
    sessions.closeExpired();
    quota
      .renew()
      .catch((error: unknown) => app.log.warn({ err: error }, 'socket quota not renewed'));
  });
  const stopDelivery = deliverEvents(ctx.events, { users, rooms, sessions });
  // A logout, block or mute while Redis was down sent its event nowhere: once the bus is back,
  // the database says which of our sockets' sessions are gone, and who blocked or muted whom.
  const stopRecheck = ctx.events.onResume(() => {
    const checked = sessions.sessionIds();
    sessionsStillThere(ctx, checked).then(
      (stillThere) => sessions.endMissing(checked, stillThere),
      (error: unknown) => app.log.error({ err: error }, "could not recheck open sockets' sessions"),
    );
    recheckRoomLists(ctx, rooms).catch((error: unknown) =>
      app.log.error({ err: error }, "could not recheck chat members' blocks and mutes"),
    );
  });
  app.addHook('onClose', async () => {
    stopDelivery();
    stopRecheck();
  });

  await app.register(notificationSocketRoutes, { ctx, users, sessions, quota, prefix: base });
  await app.register(chatRoutes, {
    ctx,
    rooms,
    sessions,
    quota,
    history: chatHistory,
    prefix: base,
  });
}

export const realtime = fp(realtimePlugin, { name: 'inkwell-realtime' });
