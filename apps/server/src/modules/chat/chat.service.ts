import { CHAT_LIMITS, CHAT_SERVER_USER, WS_CLOSE } from '@inkwell/contract';
import { CHAT_TOO_LARGE_DETAIL } from '@inkwell/contract/constants';
import type { RawData } from 'ws';
import type { AppContext, Viewer } from '../../context.ts';
import { escapeText } from '../../html/escape.ts';
import { isBlankHtml, sanitizeContent } from '../../html/sanitize.ts';
import { findAuthor } from '../authors/authors.service.ts';
import {
  assertNotBlockedBy,
  BLOCKED_DETAIL,
  listsOf,
  listUsers,
} from '../blocks/blocks.service.ts';
import type { LimitStore } from '../../lib/limit-store.ts';
import type { AdmissionWatch, ChatRooms } from '../../realtime/chat-rooms.ts';
import { TokenBucket, type TokenRate } from '../../lib/token-bucket.ts';

/** The room of an author, keyed by id so that renaming the author keeps the room and its history. */
export const roomOf = (authorId: number) => `author:${authorId}`;
/** The author whose room `room` is (roomOf's inverse). */
const authorOfRoom = (room: string) => Number(room.slice('author:'.length));

/** Rounds of `recheckRoomLists` for members who keep joining while it reads. */
const RECHECK_ROUNDS = 3;

/**
 * Brings the rooms' members up to date with the database's blocks and mutes: a block or mute made
 * while the event bus was down (Redis unreachable) sent its event nowhere, so once the bus is back
 * each member's mutes are read again and a member the room's author blocked meanwhile is closed
 * out, as the event would have done (live/delivery.ts). Members who joined during the read, as
 * users it did not read, are read in another round.
 */
export async function recheckRoomLists(
  ctx: Pick<AppContext, 'db'>,
  rooms: ChatRooms,
  { round = 1, afterOutage = true }: { round?: number; afterOutage?: boolean } = {},
): Promise<void> {
  const recheck = rooms.recheckMutes({ afterOutage });
  const { members } = recheck;
  if (members.length === 0) return recheck.abandon();
  let uncovered: number;
  try {
    const blocked = await listsOf(
      ctx,
      'block',
      members.map((member) => authorOfRoom(member.room)),
    );
    const muted = await listsOf(
      ctx,
      'mute',
      members.map((member) => member.of.userId),
    );
    for (const member of members)
      if (blocked.get(authorOfRoom(member.room))?.has(member.of.userId))
        member.socket.close(WS_CLOSE.forbidden, BLOCKED_DETAIL);
    uncovered = recheck.apply(muted);
  } catch (error) {
    recheck.abandon();
    throw error;
  }
  if (uncovered > 0 && round < RECHECK_ROUNDS)
    await recheckRoomLists(ctx, rooms, { round: round + 1, afterOutage });
}

/**
 * Admission to an author's room (issue 19): 404 when there is no such author, 403 when the
 * author blocked the viewer; otherwise the room and the ids of the users the viewer muted, whose lines
 * the viewer's socket will not get. Later changes reach the open socket through `user.listed`
 * events (live/delivery.ts): a mute hides at once, a block closes the socket. Those that come
 * between these reads and the socket's join, `watch` keeps for the join (`ChatRooms.join`); the
 * caller ends it when the socket never joins.
 */
export async function admitToRoom(
  ctx: AppContext,
  rooms: ChatRooms,
  authorRef: string,
  viewer: Viewer,
): Promise<{ room: string; muted: Set<number>; watch: AdmissionWatch }> {
  const watch = rooms.watch(viewer.id);
  try {
    const author = await findAuthor(ctx.db, authorRef);
    await assertNotBlockedBy(ctx, author.id, viewer.id);
    const muted = await listUsers(ctx, viewer, 'mute');
    return { room: roomOf(author.id), muted: new Set(muted.map((user) => user.id)), watch };
  } catch (error) {
    rooms.unwatch(watch);
    throw error;
  }
}

export type IncomingLine =
  { kind: 'line'; message: string } | { kind: 'blank' } | { kind: 'refused'; detail: string };

export const REFUSED = {
  tooLarge: CHAT_TOO_LARGE_DETAIL,
  tooFast: 'Too many messages: slow down',
  binary: 'Messages must be text',
  unavailable: 'The chat is briefly unavailable; your message was not sent',
} as const;

/** Turns what a client sent into a chat line: sanitized editor HTML, or a refusal, or nothing. */
export function readIncoming(data: RawData, isBinary: boolean): IncomingLine {
  if (isBinary) return { kind: 'refused', detail: REFUSED.binary };
  const bytes = Array.isArray(data)
    ? Buffer.concat(data)
    : Buffer.isBuffer(data)
      ? data
      : Buffer.from(data);
  if (bytes.byteLength > CHAT_LIMITS.maxMessageBytes)
    return { kind: 'refused', detail: REFUSED.tooLarge };
  const message = sanitizeContent(bytes.toString('utf8'));
  return isBlankHtml(message) ? { kind: 'blank' } : { kind: 'line', message };
}

/** The server's note when a member joins or leaves (sent as a system frame). */
export function announcement(
  username: string,
  what: 'connected' | 'disconnected',
): { user: string; message: string } {
  return { user: CHAT_SERVER_USER, message: `<em>${escapeText(username)} has ${what}.</em>` };
}

/** Refused messages a connection may pile up before it counts as flooding, and how fast that forgives. */
const FLOOD_STRIKES = 20;
const STRIKES_FORGIVEN_PER_SECOND = 2;

/** A user's chat messages, over all their connections on every process. */
const MESSAGE_RATE: TokenRate = { burst: CHAT_LIMITS.burst, perSecond: CHAT_LIMITS.ratePerSecond };

export interface ConnectionLimits {
  /** Spends one of the user's message tokens; false when the user is over the rate. */
  allowMessage(): Promise<boolean>;
  /**
   * Records a refused message. True when the connection floods and must be closed: a client a
   * little over the rate is only told so, one sending at several times the rate for a few
   * seconds (or that keeps sending oversized frames) is cut off.
   */
  recordRefusal(): boolean;
}

/**
 * Per-user message rate (a token bucket in the limit store, shared by all the user's chat
 * connections, on every process when the store is Redis) and per-connection flood detection
 * (in memory: a connection lives on one process).
 */
export class ChatLimiter {
  private readonly store: LimitStore;

  constructor(store: LimitStore) {
    this.store = store;
  }

  open(userId: number): ConnectionLimits {
    const strikes = new TokenBucket(FLOOD_STRIKES, STRIKES_FORGIVEN_PER_SECOND);
    return {
      allowMessage: async () =>
        (await this.store.spend(`chat-messages:user:${userId}`, MESSAGE_RATE, Date.now())).allowed,
      recordRefusal: () => !strikes.take(),
    };
  }
}

/** Joins a user may make at once, and how fast the allowance comes back (one every 3 s). */
const JOIN_RATE: TokenRate = { burst: 10, perSecond: 1 / 3 };

/**
 * Chat joins per user, across connections and processes: unlike the message rate, this must
 * outlive a connection, since closing and reopening one is exactly what it limits.
 */
export class JoinLimiter {
  private readonly store: LimitStore;

  constructor(store: LimitStore) {
    this.store = store;
  }

  async allow(userId: number): Promise<boolean> {
    return (await this.store.spend(`chat-joins:user:${userId}`, JOIN_RATE, Date.now())).allowed;
  }
}
