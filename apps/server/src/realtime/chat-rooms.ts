import type { WebSocket } from 'ws';
import { sendFrame } from './sockets.ts';

/** A chat line ready to send: `payload` is the serialized {user, message}; `id` when it has one. */
export interface RoomFrame {
  id?: string;
  payload: string;
  /** The member who said it (a user id, which a rename does not change); absent for room notes. */
  from?: number;
}

/** Who a socket belongs to, and whose lines it must not get (the user's mutes, issue 19). */
export interface MemberOf {
  userId: number;
  /** User ids; changed in place while the member is in the room (`ChatRooms.hideFrom`). */
  hidden: Set<number>;
}

/**
 * One socket in one room. Until its history has been sent it holds what the room broadcasts,
 * so a line said while the history loads is neither lost nor shown before older ones.
 */
export class RoomMember {
  private held: RoomFrame[] | null = [];
  readonly room: string;
  readonly socket: WebSocket;
  readonly of?: MemberOf;

  constructor(room: string, socket: WebSocket, of?: MemberOf) {
    this.room = room;
    this.socket = socket;
    this.of = of;
  }

  private hides(frame: RoomFrame): boolean {
    return frame.from !== undefined && this.of?.hidden.has(frame.from) === true;
  }

  deliver(frame: RoomFrame): void {
    if (this.hides(frame)) return;
    if (this.held) this.held.push(frame);
    else sendFrame(this.socket, frame.payload);
  }

  /** Sends the history, then what arrived meanwhile (minus lines the history already held). */
  replay(history: readonly RoomFrame[]): void {
    const seen = new Set(history.map((frame) => frame.id));
    const held = this.held ?? [];
    this.held = null;
    for (const frame of history) if (!this.hides(frame)) sendFrame(this.socket, frame.payload);
    for (const frame of held)
      if (frame.id === undefined || !seen.has(frame.id)) sendFrame(this.socket, frame.payload);
  }
}

/** The chat rooms of this process: created by their first member, removed with their last. */
export class ChatRooms {
  private readonly rooms = new Map<string, Set<RoomMember>>();
  /** Members by user, for changes that concern one user's sockets wherever they are. */
  private readonly byUser = new Map<number, Set<RoomMember>>();

  join(room: string, socket: WebSocket, of?: MemberOf): RoomMember {
    const member = new RoomMember(room, socket, of);
    let members = this.rooms.get(room);
    if (!members) {
      members = new Set();
      this.rooms.set(room, members);
    }
    members.add(member);
    if (of) {
      let mine = this.byUser.get(of.userId);
      if (!mine) {
        mine = new Set();
        this.byUser.set(of.userId, mine);
      }
      mine.add(member);
    }
    return member;
  }

  leave(member: RoomMember): void {
    const members = this.rooms.get(member.room);
    if (members) {
      members.delete(member);
      if (members.size === 0) this.rooms.delete(member.room);
    }
    if (member.of) {
      const mine = this.byUser.get(member.of.userId);
      mine?.delete(member);
      if (mine?.size === 0) this.byUser.delete(member.of.userId);
    }
  }

  broadcast(room: string, frame: RoomFrame): void {
    for (const member of this.rooms.get(room) ?? []) member.deliver(frame);
  }

  /** From now on, the user's sockets (in every room) get lines from `speakerId`, or not. */
  hideFrom(userId: number, speakerId: number, hidden: boolean): void {
    for (const member of this.byUser.get(userId) ?? []) {
      if (hidden) member.of?.hidden.add(speakerId);
      else member.of?.hidden.delete(speakerId);
    }
  }

  /** Every member that belongs to a user, in every room. */
  *members(): IterableIterator<RoomMember & { of: MemberOf }> {
    for (const mine of this.byUser.values())
      for (const member of mine) yield member as RoomMember & { of: MemberOf };
  }

  /** Closes the user's sockets in one room (e.g. the room's author blocked them). */
  closeUserIn(room: string, userId: number, code: number, reason: string): void {
    for (const member of this.byUser.get(userId) ?? [])
      if (member.room === room) member.socket.close(code, reason);
  }
}
