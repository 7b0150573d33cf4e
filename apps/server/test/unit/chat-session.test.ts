import { CHAT_LIMITS } from '@inkwell/contract';
import { describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import type { AppContext } from '../../src/context.ts';
import type { ChatHistory } from '../../src/modules/chat/chat-history.ts';
import { joinRoom, type ChatDeps } from '../../src/modules/chat/chat-session.ts';
import { ChatRooms } from '../../src/realtime/chat-rooms.ts';
import { FakeSocket } from '../helpers/fake-socket.ts';

/**
 * A member joined to a room whose limit store answers late (Redis under load): its lines queue
 * behind the store's answer, which `answer` gives (to all of them at once).
 */
function joinWithSlowStore({ acks }: { acks: boolean }) {
  const socket = new FakeSocket();
  const publish = vi.fn(async (_event: { system?: boolean; message: string }) => {});
  const append = vi.fn(async () => {});
  const history = { append, recent: async () => [] } as unknown as ChatHistory;
  let answer: (allowed: boolean) => void = () => {};
  const answered = new Promise<boolean>((resolve) => (answer = resolve));
  joinRoom(
    {
      ctx: { events: { publish } } as unknown as AppContext,
      rooms: new ChatRooms(),
      history,
    } as ChatDeps,
    {
      socket: socket as unknown as WebSocket,
      viewer: { id: 7, username: 'quick', sessionId: 1, signedInAt: '' },
      room: 'author',
      muted: new Set(),
      limits: { allowMessage: () => answered, recordRefusal: () => false },
      acks,
      log: { warn() {} } as never,
    },
  );
  return { socket, publish, append, answer: (allowed: boolean) => answer(allowed) };
}

describe('a chat member whose socket closes while lines wait their turn', () => {
  it('stores and publishes none of the waiting lines (a block, logout or suspension closed it)', async () => {
    const { socket, publish, append, answer } = joinWithSlowStore({ acks: false });
    for (const line of ['one', 'two', 'three']) socket.emit('message', Buffer.from(line), false);
    socket.close();
    answer(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(append).not.toHaveBeenCalled();
    expect(publish.mock.calls.filter(([event]) => !event.system)).toEqual([]);
  });
});

describe('a chat member who asked for acks', () => {
  it('hears the answers in the order it sent, a refusal for going too fast included', async () => {
    // A burst of lines waits on the store, and the one after the burst is refused before any
    // of them is answered.
    const { socket, answer } = joinWithSlowStore({ acks: true });
    for (let i = 0; i <= CHAT_LIMITS.burst; i++)
      socket.emit('message', Buffer.from(`<p>${i}</p>`), false);
    answer(true);
    await vi.waitFor(() => expect(answers(socket)).toHaveLength(CHAT_LIMITS.burst + 1));
    expect(answers(socket)).toEqual([
      ...Array.from({ length: CHAT_LIMITS.burst }, () => ({ type: 'sent' })),
      { type: 'error', detail: 'Too many messages: slow down' },
    ]);
  });
});

/** The sent and error frames a socket was sent, in order. */
const answers = (socket: FakeSocket) =>
  socket.sent
    .map((frame) => JSON.parse(frame) as { type?: string })
    .filter((frame) => frame.type === 'sent' || frame.type === 'error');
