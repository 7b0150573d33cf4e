import type { WebSocket } from 'ws';
import { sendFrame } from './sockets.ts';

/** A chat line ready to send: `payload` is the serialized {user, message}; `id` when it has one. */
export interface RoomFrame {
  id?: string;
  payload: string;
  /** The member who said it (a username); absent for the room's own notes. */
  from?: string;
}

/** Whether a member should not get lines from this user (a mute, issue 19). */
export type HidesFrom = (from: string) => boolean;

/**
 * One socket in one room. Until its history has been sent it holds what the room broadcasts,
 * so a line said while the history loads is neither lost nor shown before older ones.
 */
export class RoomMember {
  private held: RoomFrame[] | null = [];

  constructor(
    readonly room: string,
    readonly socket: WebSocket,
    private readonly hides: HidesFrom = () => false,
  ) {}

  private hidden(frame: RoomFrame): boolean {
    return frame.from !== undefined && this.hides(frame.from);
  }

  deliver(frame: RoomFrame): void {
    if (this.hidden(frame)) return;
    if (this.held) this.held.push(frame);
    else sendFrame(this.socket, frame.payload);
  }

  /** Sends the history, then what arrived meanwhile (minus lines the history already held). */
  replay(history: readonly RoomFrame[]): void {
    const seen = new Set(history.map((frame) => frame.id));
    const held = this.held ?? [];
    this.held = null;
    for (const frame of history) if (!this.hidden(frame)) sendFrame(this.socket, frame.payload);
    for (const frame of held)
      if (frame.id === undefined || !seen.has(frame.id)) sendFrame(this.socket, frame.payload);
  }
}

/** The chat rooms of this process: created by their first member, removed with their last. */
export class ChatRooms {
  private readonly rooms = new Map<string, Set<RoomMember>>();

  join(room: string, socket: WebSocket, hides?: HidesFrom): RoomMember {
    const member = new RoomMember(room, socket, hides);
    let members = this.rooms.get(room);
    if (!members) {
      members = new Set();
      this.rooms.set(room, members);
    }
    members.add(member);
    return member;
  }

  leave(member: RoomMember): void {
    const members = this.rooms.get(member.room);
    if (!members) return;
    members.delete(member);
    if (members.size === 0) this.rooms.delete(member.room);
  }

  broadcast(room: string, frame: RoomFrame): void {
    for (const member of this.rooms.get(room) ?? []) member.deliver(frame);
  }
}
