import { z } from 'zod';
import { CHAT_MAX_MESSAGE_BYTES } from './constants.ts';
import { AnnouncementNotificationMessage } from './releases.ts';

/*
 * Messages of the two WebSocket endpoints (SPEC section 7, "Live connections").
 * Both take a single-use ticket as `?ticket=` (`SocketTicket`, below), or the session token as
 * `?token=` as the spec's clients send it; the cookie is not accepted there, so a page on another
 * site cannot open a socket in a signed-in user's name.
 */

/** `{base}/ws`: a chapter of a followed author was published for the first time. */
export const ChapterNotificationMessage = z
  .object({
    type: z.literal('CHAPTER'),
    message: z.string(),
    book_id: z.number(),
    chapter_id: z.number(),
  })
  .meta({ id: 'ChapterNotificationMessage' });

/** `{base}/ws`: someone followed the signed-in user; `follower` is their username. */
export const FollowNotificationMessage = z
  .object({ type: z.literal('FOLLOW'), message: z.string(), follower: z.string() })
  .meta({ id: 'FollowNotificationMessage' });

/**
 * `{base}/ws` (issue 19): a new top-level comment on one of the user's chapters (COMMENT, at most
 * one live toast per chapter per minute) or a reply in a thread they are in (REPLY).
 */
export const CommentNotificationMessage = z
  .object({
    type: z.enum(['COMMENT', 'REPLY']),
    message: z.string(),
    book_id: z.number(),
    chapter_id: z.number(),
    comment_id: z.number(),
  })
  .meta({ id: 'CommentNotificationMessage' });

export const NotificationMessage = z.union([
  ChapterNotificationMessage,
  FollowNotificationMessage,
  CommentNotificationMessage,
  AnnouncementNotificationMessage,
]);
export type NotificationMessage = z.infer<typeof NotificationMessage>;

/** The sender name of join and leave announcements in a chat room; no account may take it. */
export const CHAT_SERVER_USER = 'server';

/** `{base}/chat/{username}`: a member's chat line; `message` is sanitized HTML, `user` a username. */
export const ChatMessage = z
  .object({ user: z.string(), message: z.string() })
  .meta({ id: 'ChatMessage' });
export type ChatMessage = z.infer<typeof ChatMessage>;

/**
 * `{base}/chat/{username}`: a note of the room itself (someone joined or left). Told apart from a
 * member's line by `type`, so no member's line can pass for one; `user` is 'server', as the
 * spec's clients expect of system messages.
 */
export const ChatSystemFrame = z
  .object({ type: z.literal('system'), user: z.literal(CHAT_SERVER_USER), message: z.string() })
  .meta({ id: 'ChatSystemFrame' });
export type ChatSystemFrame = z.infer<typeof ChatSystemFrame>;

/** Sent to one chat connection whose message was refused (too large, too fast); the socket stays open. */
export const ChatErrorFrame = z
  .object({ type: z.literal('error'), detail: z.string() })
  .meta({ id: 'ChatErrorFrame' });
export type ChatErrorFrame = z.infer<typeof ChatErrorFrame>;

/**
 * Sent to a chat connection that asked for it (`?acks=1`, CHAT_ACKS_QUERY) when one of its
 * messages reached the room, or was sanitized to nothing. With the error frame, each message such
 * a connection sends gets exactly one answer, in the order sent: a client tells its own messages'
 * fate apart from the lines its user sends from another tab. Never sent unasked: the spec's
 * clients know only chat lines.
 */
export const ChatSentFrame = z.object({ type: z.literal('sent') }).meta({ id: 'ChatSentFrame' });
export type ChatSentFrame = z.infer<typeof ChatSentFrame>;

/**
 * What a chat client receives: chat lines, system notes and, for its own messages, error frames
 * (refused) and sent frames (when asked for).
 */
export const ChatServerFrame = z.union([
  ChatSystemFrame,
  ChatErrorFrame,
  ChatSentFrame,
  ChatMessage,
]);
export type ChatServerFrame = z.infer<typeof ChatServerFrame>;

export const CHAT_LIMITS = {
  /** A message larger than this (UTF-8 bytes, before sanitizing) is refused with an error frame. */
  maxMessageBytes: CHAT_MAX_MESSAGE_BYTES,
  /** Messages kept per room and replayed to whoever joins. */
  historySize: 50,
  /** Sustained messages per second per user, and the burst allowed above it. */
  ratePerSecond: 5,
  burst: 10,
} as const;

/**
 * Close codes. Authentication and unknown rooms are reported by accepting the upgrade and closing
 * at once with a 44xx code and a reason: browsers hide the HTTP status of a refused upgrade, but
 * they do show close codes, so a client can tell "not signed in" (4401: a dead token, or a ticket
 * used, unknown or expired) from a network failure. A token client then signs in again; a ticket
 * client asks for a fresh ticket, which a dead session is refused (401).
 */
export const WS_CLOSE = {
  /** The server is shutting down (or the client's connection was replaced); reconnect later. */
  goingAway: 1001,
  /** The connection flooded the room and was closed. */
  policyViolation: 1008,
  /** A frame larger than the socket's hard limit (64 KB). */
  messageTooBig: 1009,
  /**
   * Missing, unknown, expired or logged-out token, or a ticket unknown, expired or already used;
   * also closes an open socket when its session
   * ends (logout, password change elsewhere: reason "The session has ended") or expires ("The
   * session has expired"). Either way: sign in again, do not reconnect with the same token.
   */
  unauthorized: 4401,
  /** The chat room's author has blocked this user (issue 19). */
  forbidden: 4403,
  /** The chat room's author does not exist. */
  notFound: 4404,
  /**
   * Too many sockets open for this user or address, or too many chat joins in a short time:
   * close one, or wait a little before reconnecting.
   */
  tooMany: 4429,
} as const;

/**
 * `POST /api/socket-tickets` (auth): a single-use ticket to open one WebSocket as the signed-in
 * user, `{base}/ws?ticket=...` or `{base}/chat/{username}?ticket=...`, within `expires_in`
 * seconds. Unlike `?token=`, it carries nothing a log could reuse (docs/decisions/0023).
 */
export const SocketTicket = z
  .object({ ticket: z.string(), expires_in: z.number().int() })
  .meta({ id: 'SocketTicket' });
export type SocketTicket = z.infer<typeof SocketTicket>;
