import {
  CHAT_SERVER_USER,
  WS_CLOSE,
  type ChatMessage,
  type ChatSystemFrame,
} from '@inkwell/contract';
import { BLOCKED_DETAIL } from '../blocks/blocks.service.ts';
import { roomOf } from '../chat/chat.service.ts';
import { notificationFor } from '../notifications/notifications.service.ts';
import type { ChatRooms } from '../../realtime/chat-rooms.ts';
import type { EventBus } from '../../realtime/events.ts';
import type { SessionSockets } from '../../realtime/session-sockets.ts';
import type { UserSockets } from '../../realtime/user-sockets.ts';

/**
 * Delivers every event of the bus to the sockets this process holds: notifications to their
 * recipients' connections, chat lines to the room's members, the end of a session to the
 * sockets opened with it. Each frame is serialized once per event, whatever the number of sockets.
 */
export function deliverEvents(
  bus: EventBus,
  { users, rooms, sessions }: { users: UserSockets; rooms: ChatRooms; sessions: SessionSockets },
): () => void {
  return bus.subscribe((event, envelope) => {
    if (event.type === 'chat.message') {
      const payload = JSON.stringify(
        event.system
          ? ({
              type: 'system',
              user: CHAT_SERVER_USER,
              message: event.message,
            } satisfies ChatSystemFrame)
          : ({ user: event.user, message: event.message } satisfies ChatMessage),
      );
      rooms.broadcast(event.room, {
        ...(event.id !== undefined && { id: event.id }),
        ...(!event.system && event.userId !== undefined && { from: event.userId }),
        payload,
      });
      return;
    }
    if (event.type === 'sessions.ended') {
      sessions.end(event.sessionIds);
      return;
    }
    if (event.type === 'user.listed') {
      if (event.kind === 'mute') rooms.hideFrom(event.ownerId, event.userId, event.listed);
      else if (event.listed)
        rooms.closeUserIn(roomOf(event.ownerId), event.userId, WS_CLOSE.forbidden, BLOCKED_DETAIL);
      return;
    }
    const message = notificationFor(event);
    if (message && envelope.recipients?.length)
      users.send(envelope.recipients, JSON.stringify(message));
  });
}
