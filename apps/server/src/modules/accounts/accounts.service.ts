import type { Account, SignupBody, SocketTicket } from '@inkwell/contract';
import { isOperator } from '../../access/policy.ts';
import type { AppContext, Viewer } from '../../context.ts';
import { nowIso } from '../../lib/convert.ts';
import { badRequest, conflict, forbidden, rateLimited, unauthorized } from '../../lib/errors.ts';
import { clientAddress } from '../../lib/client-address.ts';
import { FailureLimiter } from '../../lib/failure-limiter.ts';
import { toAccount } from '../../presenters/user.ts';
import { claimedUserId, knownDeviceKey } from './known-devices.ts';
import * as accounts from './accounts.repository.ts';
import { decoyPasswordHash, hashPassword, verifyPassword } from './passwords.ts';
import * as socketTickets from './socket-tickets.repository.ts';
import { hashToken, newSessionToken } from './tokens.ts';

export const LOGIN_FAILURE_DETAIL = 'Incorrect username or password';

/** A username another account has, in any case: at signup or on a rename. */
export const usernameTakenError = () => conflict('That username is taken', 'username');

export async function signup(ctx: AppContext, input: SignupBody) {
  refuseReservedUsername(input.username);
  if (await accounts.findUserByUsername(ctx.db, input.username)) {
    throw usernameTakenError();
  }
  const passwordHash = await hashPassword(input.password);
  let user;
  try {
    user = await accounts.insertUser(ctx.db, {
      username: input.username,
      passwordHash,
      now: nowIso(),
    });
  } catch (error) {
    // Two signups racing for one name: the unique index decides, and the loser hears 409.
    if (await accounts.findUserByUsername(ctx.db, input.username)) {
      throw usernameTakenError();
    }
    throw error;
  }
  const token = await startSession(ctx, user.id);
  return { token, user };
}

/** Usernames that could pass for the site itself (chat notes, staff): nobody may take them. */
const RESERVED_USERNAMES: ReadonlySet<string> = new Set(['server', 'admin', 'inkwell']);

export function refuseReservedUsername(username: string): void {
  if (RESERVED_USERNAMES.has(username.toLowerCase())) {
    throw badRequest(`The username "${username}" is reserved; please choose another`, 'username');
  }
}

/**
 * Operators are named by username (ADMIN_USERNAMES), so a name must not move into or out of
 * that list by a rename: renaming into it would make anyone an operator, and an operator who
 * renamed would leave their name for anyone to take. (Signing up with a listed name stays
 * possible, as that is how an operator's account is made: list names that already exist.)
 */
export function refuseOperatorRename(
  ctx: Pick<AppContext, 'config'>,
  from: string,
  to: string,
): void {
  const admins = ctx.config.ADMIN_USERNAMES;
  if (isOperator(admins, { username: from }) || isOperator(admins, { username: to })) {
    throw badRequest("An operator's username cannot be changed, nor taken by a rename", 'username');
  }
}

/** The longest wait between guesses once a username or address has used up its free tries. */
const LOGIN_MAX_BACKOFF_MS = 15 * 60 * 1000;

export type LoginLimiters = FailureLimiter;

const loginLimiters = new WeakMap<Pick<AppContext, 'config' | 'limits'>, FailureLimiter>();

/** How long a password check may stay in flight before its count lapses (its process died). */
const LOGIN_IN_FLIGHT_MS = 60 * 1000;

/**
 * The guess limiter of this app: failed logins and wrong current passwords, per username and per
 * IP. LOGIN_MAX_FAILURES free failures, then a wait from 1 s doubling up to 15 min; forgotten
 * after LOGIN_WINDOW_SECONDS without a failure. Counted in Redis when there is one (shared by
 * every process), else in memory. One per app, so logins and password changes share it.
 */
export function createLoginLimiters(ctx: Pick<AppContext, 'config' | 'limits'>): LoginLimiters {
  let limiter = loginLimiters.get(ctx);
  if (!limiter) {
    const forgetMs = ctx.config.LOGIN_WINDOW_SECONDS * 1000;
    limiter = new FailureLimiter(
      ctx.limits.attempts('login', {
        free: ctx.config.LOGIN_MAX_FAILURES,
        baseMs: 1000,
        maxMs: Math.min(LOGIN_MAX_BACKOFF_MS, forgetMs),
        forgetMs,
        inFlightMs: LOGIN_IN_FLIGHT_MS,
      }),
    );
    loginLimiters.set(ctx, limiter);
  }
  return limiter;
}

const usernameKey = (username: string) => `user:${username.toLowerCase()}`;
// An address as every per-address limit counts it (IPv6 by its /64).
const ipKey = (ip: string) => `ip:${clientAddress(ip)}`;

/**
 * Checks a password guess for a username under the limiter: the attempt is counted before the
 * (slow) check and released when it succeeds. Answers whether the guess was right; throws 429
 * when the username (or the known device standing in for it: known-devices.ts) or the address
 * must wait.
 */
export async function checkGuess(
  limiter: FailureLimiter,
  keys: { username: string; ip?: string; device?: string | null },
  check: () => Promise<boolean>,
): Promise<boolean> {
  const user = usernameKey(keys.username);
  const guesser = keys.device ?? user;
  const admission = await limiter.begin(
    keys.ip === undefined ? [guesser] : [ipKey(keys.ip), guesser],
  );
  if ('retryAfterSeconds' in admission)
    throw rateLimited('failed attempts', admission.retryAfterSeconds * 1000);
  let right: boolean;
  try {
    right = await check();
  } catch (error) {
    // Not a guess that failed: the check itself did (database down).
    await admission.attempt.release();
    throw error;
  }
  if (!right) {
    await admission.attempt.failed();
    return false;
  }
  await admission.attempt.release();
  await limiter.reset(user);
  if (guesser !== user) await limiter.reset(guesser);
  return true;
}

/**
 * Signs in with a username and password. `device` is the browser's known-device cookie, if it
 * has one: when it was given to this username's owner, its attempts count under its own key, so
 * a lockout of the username by someone else's wrong guesses does not keep the owner out.
 */
export async function login(
  ctx: AppContext,
  limiters: LoginLimiters,
  input: { username: string; password: string; ip: string; device?: string },
) {
  // With a device cookie the user is read first, to check it, and once only; without one the
  // read waits for the limiter's admission, so a throttled guess costs no query.
  let user =
    claimedUserId(input.device) !== null
      ? await accounts.findUserByUsername(ctx.db, input.username)
      : undefined;
  const device = user ? knownDeviceKey(input.device, user) : null;
  const valid = await checkGuess(limiters, { ...input, device }, async () => {
    user ??= await accounts.findUserByUsername(ctx.db, input.username);
    return user
      ? verifyPassword(user.password_hash, input.password)
      : verifyPassword(await decoyPasswordHash(), input.password).then(() => false);
  });
  if (!valid || !user) throw unauthorized(LOGIN_FAILURE_DETAIL);
  // Told only to whoever knows the password: a suspension is no secret from its owner.
  if (user.suspended_at !== null) throw forbidden(SUSPENDED_DETAIL);
  return { token: await startSession(ctx, user.id), user };
}

async function startSession(ctx: AppContext, userId: number): Promise<string> {
  const token = newSessionToken();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + ctx.config.SESSION_DAYS * 24 * 60 * 60 * 1000);
  await accounts.insertSession(ctx.db, {
    userId,
    tokenHash: hashToken(token),
    now: now.toISOString(),
    expiresAt: expiresAt.toISOString(),
  });
  return token;
}

/** A live session: who it signs in, and until when (epoch ms). */
export interface LiveSession {
  viewer: Viewer;
  expiresAt: number;
}

const findSession = (ctx: AppContext, token: string) =>
  accounts.findLiveSession(ctx.db, hashToken(token), nowIso());

type SessionRow = NonNullable<Awaited<ReturnType<typeof findSession>>>;

const viewerOf = (session: SessionRow): Viewer => ({
  id: session.user_id,
  username: session.username,
  sessionId: session.session_id,
  signedInAt: session.signed_in_at,
});

const liveSessionOf = (session: SessionRow): LiveSession => ({
  viewer: viewerOf(session),
  expiresAt: Date.parse(session.expires_at),
});

/** Resolves a raw token to the viewer it belongs to, or null when it is unknown or expired. */
export async function viewerForToken(ctx: AppContext, token: string): Promise<Viewer | null> {
  const session = await findSession(ctx, token);
  return session ? viewerOf(session) : null;
}

/** Like viewerForToken, with the session's expiry: a socket outliving it must be closed. */
export async function sessionForToken(ctx: AppContext, token: string): Promise<LiveSession | null> {
  const session = await findSession(ctx, token);
  return session ? liveSessionOf(session) : null;
}

/** How long a socket ticket may wait to be used: enough to open a socket, no more. */
export const SOCKET_TICKET_SECONDS = 60;

/**
 * A single-use ticket for the viewer's session to open one WebSocket (docs/decisions/0023): the
 * socket URL then carries it instead of the 30-day session token. Stored hashed, in the
 * database, so that any process can take it.
 */
export async function issueSocketTicket(ctx: AppContext, viewer: Viewer): Promise<SocketTicket> {
  const ticket = newSessionToken();
  await socketTickets.insertSocketTicket(ctx.db, {
    ticketHash: hashToken(ticket),
    sessionId: viewer.sessionId,
    expiresAt: new Date(Date.now() + SOCKET_TICKET_SECONDS * 1000).toISOString(),
  });
  return { ticket, expires_in: SOCKET_TICKET_SECONDS };
}

/**
 * Uses up a socket ticket: the live session it was issued to, or null when the ticket is
 * unknown, already used or expired, or its session has ended.
 */
export async function sessionForSocketTicket(
  ctx: AppContext,
  ticket: string,
): Promise<LiveSession | null> {
  const now = nowIso();
  const sessionId = await socketTickets.takeSocketTicket(ctx.db, hashToken(ticket), now);
  if (sessionId === undefined) return null;
  const session = await socketTickets.findLiveSessionById(ctx.db, sessionId, now);
  return session ? liveSessionOf(session) : null;
}

/**
 * Tells every process that these sessions are over, once their rows are gone, so the sockets
 * opened with them close too (a token is only checked when a socket opens).
 */
export async function sessionsEnded(ctx: AppContext, sessionIds: number[]): Promise<void> {
  if (sessionIds.length > 0) await ctx.events.publish({ type: 'sessions.ended', sessionIds });
}

/** IDs per query: far below both engines' bound on bound parameters. */
const SESSION_CHECK_CHUNK = 1_000;

/**
 * Of these sessions, the ones that have not ended; for processes that may have missed a
 * `sessions.ended` event. Expiry is not checked here: sockets track their own.
 */
export async function sessionsStillThere(
  ctx: AppContext,
  sessionIds: number[],
): Promise<Set<number>> {
  const found = new Set<number>();
  for (let start = 0; start < sessionIds.length; start += SESSION_CHECK_CHUNK) {
    const chunk = sessionIds.slice(start, start + SESSION_CHECK_CHUNK);
    for (const id of await accounts.findExistingSessionIds(ctx.db, chunk)) found.add(id);
  }
  return found;
}

export const SUSPENDED_DETAIL = 'This account is suspended';

/**
 * Suspends or restores an account (issue 19, by an operator): a suspended user cannot sign in,
 * and every session they had ends now, closing their sockets on every process.
 */
export async function setSuspended(
  ctx: AppContext,
  userId: number,
  suspended: boolean,
): Promise<void> {
  if (!suspended) {
    await accounts.setSuspendedAt(ctx.db, userId, null);
    return;
  }
  const sessionIds = await ctx.db.transaction().execute(async (trx) => {
    await accounts.setSuspendedAt(trx, userId, nowIso());
    return accounts.deleteSessionsOf(trx, userId);
  });
  await sessionsEnded(ctx, sessionIds);
}

/**
 * Ends the session the request was signed in with and the session cookie's, when that is another
 * one (a page's bearer token can outlive a sign-in again in another tab, which set a new cookie):
 * logging out clears the cookie, so the session it named must not live on without it.
 */
export async function logout(
  ctx: AppContext,
  viewer: Viewer | null,
  cookieToken: string | null,
): Promise<void> {
  const byCookie = cookieToken ? await viewerForToken(ctx, cookieToken) : null;
  const ended = [...new Set([viewer?.sessionId, byCookie?.sessionId])].filter(
    (id): id is number => id !== undefined,
  );
  if (ended.length === 0) return;
  for (const id of ended) await accounts.deleteSession(ctx.db, id);
  await sessionsEnded(ctx, ended);
}

/** The account as its owner sees it, with whether they are an operator (ADMIN_USERNAMES). */
export function presentAccount(
  ctx: Pick<AppContext, 'config'>,
  row: Parameters<typeof toAccount>[0],
): Account {
  return toAccount(row, isOperator(ctx.config.ADMIN_USERNAMES, row));
}

export async function accountOf(ctx: AppContext, viewer: Viewer) {
  const user = await accounts.findUserById(ctx.db, viewer.id);
  if (!user) throw unauthorized();
  return user;
}

/**
 * Deletes expired sessions, and expired socket tickets nobody used: an expired session is already
 * refused, this only keeps the tables from growing. A periodic job (modules/jobs/schedule.ts)
 * runs it once per SESSION_PURGE_INTERVAL_SECONDS across all processes.
 */
export async function purgeExpiredSessions(ctx: Pick<AppContext, 'db'>): Promise<void> {
  const now = nowIso();
  await accounts.deleteExpiredSessions(ctx.db, now);
  await socketTickets.deleteExpiredSocketTickets(ctx.db, now);
}

/** How long after signing in a session may change the password without the current one. */
const SUDO_WINDOW_MS = 10 * 60 * 1000;

export const PASSWORD_CHANGE_DETAIL = {
  wrongCurrent: 'Your current password is incorrect.',
  signInAgain: `To change your password, enter your current password, or sign out and sign in again: you signed in more than ${SUDO_WINDOW_MS / 60_000} minutes ago.`,
} as const;

/**
 * Lets a password change through only for the account's owner, not for whoever holds one of its
 * sessions: with the right current password (limited like logins, per username), or without one
 * within SUDO_WINDOW_MS of signing in (the spec's clients send none). 403 otherwise, about
 * `current_password` (wrong, or needed), not the new password, though the message names both.
 */
export async function confirmPasswordChange(
  ctx: AppContext,
  viewer: Viewer,
  currentPassword: string | null | undefined,
  deviceCookie?: string,
): Promise<void> {
  if (currentPassword) {
    const user = await accountOf(ctx, viewer);
    const right = await checkGuess(
      createLoginLimiters(ctx),
      { username: user.username, device: knownDeviceKey(deviceCookie, user) },
      () => verifyPassword(user.password_hash, currentPassword),
    );
    if (!right) throw forbidden(PASSWORD_CHANGE_DETAIL.wrongCurrent, 'current_password');
    return;
  }
  if (Date.now() - Date.parse(viewer.signedInAt) > SUDO_WINDOW_MS) {
    throw forbidden(PASSWORD_CHANGE_DETAIL.signInAgain, 'current_password');
  }
}
