import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { TokenBucket } from '../../src/lib/token-bucket.ts';
import { ChatRooms } from '../../src/realtime/chat-rooms.ts';
import { FakeSocket } from '../helpers/fake-socket.ts';

const join = (rooms: ChatRooms, room: string) => {
  const socket = new FakeSocket();
  return { socket, member: rooms.join(room, socket as unknown as WebSocket) };
};

describe('chat rooms', () => {
  it('hold a joining member’s lines until its history is sent, then skip those the history had', () => {
    const rooms = new ChatRooms();
    const { socket, member } = join(rooms, 'r');
    rooms.broadcast('r', { id: 'b', payload: 'line b' });
    rooms.broadcast('r', { id: 'c', payload: 'line c' });
    rooms.broadcast('r', { payload: 'join note' });
    expect(socket.sent).toEqual([]);
    member.replay([
      { id: 'a', payload: 'line a' },
      { id: 'b', payload: 'line b' },
    ]);
    expect(socket.sent).toEqual(['line a', 'line b', 'line c', 'join note']);
    rooms.broadcast('r', { id: 'd', payload: 'line d' });
    expect(socket.sent.at(-1)).toBe('line d');
  });

  it('deliver only to members of the room, and forget a room with its last member', () => {
    const rooms = new ChatRooms();
    const first = join(rooms, 'r');
    const other = join(rooms, 'elsewhere');
    for (const { member } of [first, other]) member.replay([]);
    rooms.broadcast('r', { payload: 'hi' });
    expect(first.socket.sent).toEqual(['hi']);
    expect(other.socket.sent).toEqual([]);
    rooms.leave(first.member);
    rooms.broadcast('r', { payload: 'anyone?' });
    expect(first.socket.sent).toEqual(['hi']);
    const again = join(rooms, 'r');
    again.member.replay([]);
    rooms.broadcast('r', { payload: 'back' });
    expect(again.socket.sent).toEqual(['back']);
  });

  it('drop a member that stopped reading instead of buffering without end', () => {
    const rooms = new ChatRooms();
    const { socket, member } = join(rooms, 'r');
    member.replay([]);
    socket.bufferedAmount = 10 * 1024 * 1024;
    rooms.broadcast('r', { payload: 'x' });
    expect(socket.sent).toEqual([]);
    expect(socket.readyState).toBe(WebSocket.CLOSED);
  });
});

describe("chat rooms' recheck of mutes (the event bus back after an outage)", () => {
  const member = (rooms: ChatRooms, room: string, userId: number, hidden: number[]) => {
    const socket = new FakeSocket();
    const joined = rooms.join(room, socket as unknown as WebSocket, {
      userId,
      hidden: new Set(hidden),
    });
    joined.replay([]);
    return { socket, hidden: joined.of!.hidden };
  };

  it("takes the database's mutes, but keeps what an event changed while they were read", () => {
    const rooms = new ChatRooms();
    const reader = member(rooms, 'author:1', 10, [20, 21]);
    const recheck = rooms.recheckMutes();
    expect(recheck.members).toHaveLength(1);
    // While the database is read: a mute of 30 and an unmute of 22 arrive (the read may have
    // missed both), and another socket of the same user and a socket of a user not read join.
    rooms.hideFrom(10, 30, true);
    rooms.hideFrom(10, 22, false);
    const second = member(rooms, 'author:3', 10, [21, 30]);
    const late = member(rooms, 'author:2', 11, [40]);
    // The read: 20 unmuted and 22 muted during the outage; 30 and 40 not seen.
    const uncovered = recheck.apply(new Map([[10, new Set([21, 22])]]));
    expect([...reader.hidden].sort()).toEqual([21, 30]);
    expect([...second.hidden].sort()).toEqual([21, 30]);
    // Not read: left as it joined, and counted for another round.
    expect(uncovered).toBe(1);
    expect([...late.hidden]).toEqual([40]);
    // Events after the recheck apply as always, and the recheck no longer notes them.
    rooms.hideFrom(10, 30, false);
    expect([...reader.hidden]).toEqual([21]);
  });

  it('gives a joining socket the changes made while its admission read the lists', () => {
    const rooms = new ChatRooms();
    const watch = rooms.watch(10);
    const otherUser = rooms.watch(11);
    // While the admission reads: a mute of 30, a mute then unmute of 20, another user's mute.
    rooms.hideFrom(10, 30, true);
    rooms.hideFrom(10, 20, true);
    rooms.hideFrom(10, 20, false);
    rooms.hideFrom(11, 40, true);
    // The read found 20 muted (before its unmute) and missed 30.
    const socket = new FakeSocket();
    const joined = rooms.join(
      'author:1',
      socket as unknown as WebSocket,
      {
        userId: 10,
        hidden: new Set([20, 21]),
      },
      watch,
    );
    expect([...joined.of!.hidden].sort()).toEqual([21, 30]);
    expect(watch.recheckBegan).toBe(false);
    expect(socket.closedWith).toBeNull();
    // A joined watch notes nothing more; the member itself follows the events.
    rooms.hideFrom(10, 50, true);
    expect(watch.muted.has(50)).toBe(false);
    expect([...joined.of!.hidden].sort()).toEqual([21, 30, 50]);
    rooms.unwatch(otherUser);
  });

  it('closes a socket whose user was closed out of its room while admitted, and says when a recheck began', () => {
    const rooms = new ChatRooms();
    const blocked = rooms.watch(10);
    const outage = rooms.watch(11);
    rooms.closeUserIn('author:1', 10, 4403, 'blocked');
    rooms.closeUserIn('author:2', 11, 4403, 'blocked');
    rooms.recheckMutes().abandon();
    const first = new FakeSocket();
    rooms.join(
      'author:1',
      first as unknown as WebSocket,
      { userId: 10, hidden: new Set() },
      blocked,
    );
    expect(first.closedWith).toEqual({ code: 4403, reason: 'blocked' });
    // Closed out of another room only: this one stays open, but its read may be stale.
    const second = new FakeSocket();
    rooms.join(
      'author:1',
      second as unknown as WebSocket,
      { userId: 11, hidden: new Set() },
      outage,
    );
    expect(second.closedWith).toBeNull();
    expect(outage.recheckBegan).toBe(true);
  });

  it("flags admissions under way for a recheck after an outage, not for a join's own recheck", () => {
    const rooms = new ChatRooms();
    const joining = rooms.watch(10);
    rooms.recheckMutes({ afterOutage: false }).abandon();
    expect(joining.recheckBegan).toBe(false);
    rooms.recheckMutes().abandon();
    expect(joining.recheckBegan).toBe(true);
    rooms.unwatch(joining);
  });

  it('lets only the latest of two rechecks apply', () => {
    const rooms = new ChatRooms();
    const reader = member(rooms, 'author:1', 10, [20]);
    const older = rooms.recheckMutes();
    const newer = rooms.recheckMutes();
    expect(newer.apply(new Map([[10, new Set([20, 21])]]))).toBe(0);
    // The older read, slower, comes back last: without 21, muted during a second outage.
    expect(older.apply(new Map([[10, new Set([20])]]))).toBe(0);
    expect([...reader.hidden].sort()).toEqual([20, 21]);
  });
});

describe('token bucket', () => {
  it('allows a burst, then the sustained rate', () => {
    let now = 0;
    const bucket = new TokenBucket(10, 5, () => now);
    const burst = Array.from({ length: 12 }, () => bucket.take());
    expect(burst.filter(Boolean)).toHaveLength(10);
    now += 1_000;
    expect(Array.from({ length: 6 }, () => bucket.take()).filter(Boolean)).toHaveLength(5);
    now += 60_000;
    expect(Array.from({ length: 11 }, () => bucket.take()).filter(Boolean)).toHaveLength(10);
  });
});
