import { CHAT_LIMITS, CHAT_SERVER_USER } from '@inkwell/contract';
import type { RawData } from 'ws';
import type { AppContext } from '../../context.ts';
import { escapeText } from '../../html/escape.ts';
import { isBlankHtml, sanitizeContent } from '../../html/sanitize.ts';
import { findAuthor } from '../authors/authors.service.ts';
import { TokenBucket } from './token-bucket.ts';

/** The room of an author, keyed by id so that renaming the author keeps the room and its history. */
export async function findRoom(ctx: AppContext, authorRef: string): Promise<string> {
  const author = await findAuthor(ctx.db, authorRef);
  return `author:${author.id}`;
}

export type IncomingLine =
  { kind: 'line'; message: string } | { kind: 'blank' } | { kind: 'refused'; detail: string };

export const REFUSED = {
  tooLarge: `Message too large: at most ${CHAT_LIMITS.maxMessageBytes / 1024} KB`,
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

export interface ConnectionLimits {
  /** Spends one of the user's message tokens; false when the user is over the rate. */
  allowMessage(): boolean;
  /**
   * Records a refused message. True when the connection floods and must be closed: a client a
   * little over the rate is only told so, one sending at several times the rate for a few
   * seconds (or that keeps sending oversized frames) is cut off.
   */
  recordRefusal(): boolean;
  release(): void;
}

/**
 * Per-user message rate (a token bucket shared by all the user's chat connections on this
 * process) and per-connection flood detection. Buckets live while the user has a connection.
 */
export class ChatLimiter {
  private readonly users = new Map<number, { bucket: TokenBucket; connections: number }>();

  open(userId: number): ConnectionLimits {
    let user = this.users.get(userId);
    if (!user) {
      user = {
        bucket: new TokenBucket(CHAT_LIMITS.burst, CHAT_LIMITS.ratePerSecond),
        connections: 0,
      };
      this.users.set(userId, user);
    }
    user.connections++;
    const shared = user;
    const strikes = new TokenBucket(FLOOD_STRIKES, STRIKES_FORGIVEN_PER_SECOND);
    let released = false;
    return {
      allowMessage: () => shared.bucket.take(),
      recordRefusal: () => !strikes.take(),
      release: () => {
        if (released) return;
        released = true;
        if (--shared.connections === 0) this.users.delete(userId);
      },
    };
  }
}

/** Joins a user may make at once, and how fast the allowance comes back (one every 3 s). */
const JOIN_BURST = 10;
const JOINS_PER_SECOND = 1 / 3;
/** Users remembered at most; the longest idle are forgotten first (their allowance is full). */
const MAX_JOINERS = 10_000;

/**
 * Chat joins per user on this process, across connections: unlike the message rate, this must
 * outlive a connection, since closing and reopening one is exactly what it limits.
 */
export class JoinLimiter {
  private readonly users = new Map<number, TokenBucket>();

  allow(userId: number): boolean {
    let bucket = this.users.get(userId);
    if (bucket) this.users.delete(userId);
    else bucket = new TokenBucket(JOIN_BURST, JOINS_PER_SECOND);
    // Most recently seen last: the map's order is who to forget first.
    this.users.set(userId, bucket);
    if (this.users.size > MAX_JOINERS) this.users.delete(this.users.keys().next().value!);
    return bucket.take();
  }
}
