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

/** Members with their owner, as `ChatRooms.members` yields them. */
export type OwnedMember = RoomMember & { of: MemberOf };

/**
 * A read of every member's mutes from the database, begun at one moment and applied at a later
 * one; see `ChatRooms.recheckMutes`.
 */
export interface MuteRecheck {
  /** The members when the recheck began: the users whose mutes the caller reads. */
  readonly members: OwnedMember[];
  /**
   * Sets the hidden users of every member whose user was read to `muted` (by user id), but for
   * changes made since the recheck began. Answers how many members it could not cover: those
   * who joined meanwhile as users it did not read (to recheck again). Does nothing, and answers
   * 0, when a newer recheck began meanwhile: its read is the fresher.
   */
  apply(muted: ReadonlyMap<number, Iterable<number>>): number;
  /** Ends the recheck without applying it (its read failed). */
  abandon(): void;
}

/**
 * What befalls one user's room lists between an admission's read of them and its socket's join
 * (`ChatRooms.watch`): an event in that window finds no member of theirs to change, and a recheck
 * begun in it does not know the socket. `ChatRooms.join` applies what it saw.
 */
export class AdmissionWatch {
  readonly userId: number;
  /** Speakers the user muted (true) or unmuted (false) meanwhile; the last word on each. */
  readonly muted = new Map<number, boolean>();
  /** Rooms the user was closed out of meanwhile (their author blocked them), with why. */
  readonly closedIn = new Map<string, { code: number; reason: string }>();
  /** Whether a recheck of mutes began meanwhile: events it stands for may be missing here. */
  recheckBegan = false;

  constructor(userId: number) {
    this.userId = userId;
  }
}

/** The chat rooms of this process: created by their first member, removed with their last. */
export class ChatRooms {
  private readonly rooms = new Map<string, Set<RoomMember>>();
  /** Members by user, for changes that concern one user's sockets wherever they are. */
  private readonly byUser = new Map<number, Set<RoomMember>>();
  /** For each recheck under way, the `user:speaker` pairs `hideFrom` changed since it began. */
  private readonly rechecks = new Set<Set<string>>();
  /** How many rechecks have begun; only the latest one applies. */
  private recheckCount = 0;
  /** Admissions reading their user's lists, by user. */
  private readonly watches = new Map<number, Set<AdmissionWatch>>();

  /** Begins noting changes to the user's lists, before an admission reads them. */
  watch(userId: number): AdmissionWatch {
    const watch = new AdmissionWatch(userId);
    let mine = this.watches.get(userId);
    if (!mine) {
      mine = new Set();
      this.watches.set(userId, mine);
    }
    mine.add(watch);
    return watch;
  }

  /** Stops a watch (its socket joined, or will not). */
  unwatch(watch: AdmissionWatch): void {
    const mine = this.watches.get(watch.userId);
    mine?.delete(watch);
    if (mine?.size === 0) this.watches.delete(watch.userId);
  }

  /**
   * Adds a socket to a room. With the watch its admission began before reading `of.hidden`, the
   * changes made since apply too: mutes and unmutes are added to `of.hidden`, and a socket closed
   * out of this room meanwhile is closed at once. (A recheck begun meanwhile the caller answers
   * with another: `watch.recheckBegan`.)
   */
  join(room: string, socket: WebSocket, of?: MemberOf, watch?: AdmissionWatch): RoomMember {
    if (watch) {
      this.unwatch(watch);
      for (const [speakerId, muted] of watch.muted)
        if (muted) of?.hidden.add(speakerId);
        else of?.hidden.delete(speakerId);
      const closed = watch.closedIn.get(room);
      if (closed) socket.close(closed.code, closed.reason);
    }
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
    for (const changed of this.rechecks) changed.add(`${userId}:${speakerId}`);
    for (const watch of this.watches.get(userId) ?? []) watch.muted.set(speakerId, hidden);
    for (const member of this.byUser.get(userId) ?? []) {
      if (hidden) member.of?.hidden.add(speakerId);
      else member.of?.hidden.delete(speakerId);
    }
  }

  /** Every member that belongs to a user, in every room. */
  *members(): IterableIterator<OwnedMember> {
    for (const mine of this.byUser.values()) for (const member of mine) yield member as OwnedMember;
  }

  /**
   * Begins replacing every member's mutes with the database's. A mute or unmute whose event
   * arrives while the database is read may or may not be in what the read finds; the event is
   * the newer word on that pair, so `apply` keeps what the event set for it.
   */
  recheckMutes({ afterOutage = true }: { afterOutage?: boolean } = {}): MuteRecheck {
    const changed = new Set<string>();
    this.rechecks.add(changed);
    const end = () => this.rechecks.delete(changed);
    const number = ++this.recheckCount;
    // Admissions under way may lack what the outage lost: their joins recheck again. A recheck
    // made for such a join has no outage behind it, and flags none (else joins would chain).
    if (afterOutage)
      for (const mine of this.watches.values()) for (const watch of mine) watch.recheckBegan = true;
    const members = [...this.members()];
    const read = new Set(members.map((member) => member.of.userId));
    return {
      members,
      apply: (muted) => {
        end();
        if (number !== this.recheckCount) return 0;
        let uncovered = 0;
        for (const member of this.members()) {
          const { userId, hidden } = member.of;
          if (!read.has(userId)) {
            uncovered++;
            continue;
          }
          const keep = [...hidden].filter((id) => changed.has(`${userId}:${id}`));
          hidden.clear();
          for (const id of muted.get(userId) ?? [])
            if (!changed.has(`${userId}:${id}`)) hidden.add(id);
          for (const id of keep) hidden.add(id);
        }
        return uncovered;
      },
      abandon: end,
    };
  }

  /** Closes the user's sockets in one room (e.g. the room's author blocked them). */
  closeUserIn(room: string, userId: number, code: number, reason: string): void {
    for (const watch of this.watches.get(userId) ?? []) watch.closedIn.set(room, { code, reason });
    for (const member of this.byUser.get(userId) ?? [])
      if (member.room === room) member.socket.close(code, reason);
  }
}
