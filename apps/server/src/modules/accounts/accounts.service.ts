import type { SignupBody } from '@inkwell/contract';
import type { AppContext, Viewer } from '../../context.ts';
import { nowIso } from '../../lib/convert.ts';
import { AppError, conflict, unauthorized } from '../../lib/errors.ts';
import { FailureLimiter } from '../../lib/failure-limiter.ts';
import * as accounts from './accounts.repository.ts';
import { decoyPasswordHash, hashPassword, verifyPassword } from './passwords.ts';
import { hashToken, newSessionToken } from './tokens.ts';

export const LOGIN_FAILURE_DETAIL = 'Incorrect username or password';

export async function signup(ctx: AppContext, input: SignupBody) {
  if (await accounts.findUserByUsername(ctx.db, input.username)) {
    throw conflict('That username is taken');
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
      throw conflict('That username is taken');
    }
    throw error;
  }
  const token = await startSession(ctx, user.id);
  return { token, user };
}

export type LoginLimiters = { byIp: FailureLimiter; byUsername: FailureLimiter };

export function createLoginLimiters(ctx: Pick<AppContext, 'config'>): LoginLimiters {
  const windowMs = ctx.config.LOGIN_WINDOW_SECONDS * 1000;
  return {
    byIp: new FailureLimiter(ctx.config.LOGIN_MAX_FAILURES, windowMs),
    byUsername: new FailureLimiter(ctx.config.LOGIN_MAX_FAILURES, windowMs),
  };
}

export async function login(
  ctx: AppContext,
  limiters: LoginLimiters,
  input: { username: string; password: string; ip: string },
) {
  const usernameKey = input.username.toLowerCase();
  const wait = Math.max(
    limiters.byIp.retryAfterSeconds(input.ip),
    limiters.byUsername.retryAfterSeconds(usernameKey),
  );
  if (wait > 0) {
    throw new AppError('rate_limited', `Too many failed logins. Try again in ${wait} s.`, {
      'retry-after': String(wait),
    });
  }
  const user = await accounts.findUserByUsername(ctx.db, input.username);
  const valid = user
    ? await verifyPassword(user.password_hash, input.password)
    : await verifyPassword(await decoyPasswordHash(), input.password).then(() => false);
  if (!user || !valid) {
    limiters.byIp.recordFailure(input.ip);
    limiters.byUsername.recordFailure(usernameKey);
    throw unauthorized(LOGIN_FAILURE_DETAIL);
  }
  limiters.byUsername.reset(usernameKey);
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
});

/** Resolves a raw token to the viewer it belongs to, or null when it is unknown or expired. */
export async function viewerForToken(ctx: AppContext, token: string): Promise<Viewer | null> {
  const session = await findSession(ctx, token);
  return session ? viewerOf(session) : null;
}

/** Like viewerForToken, with the session's expiry: a socket outliving it must be closed. */
export async function sessionForToken(ctx: AppContext, token: string): Promise<LiveSession | null> {
  const session = await findSession(ctx, token);
  return session ? { viewer: viewerOf(session), expiresAt: Date.parse(session.expires_at) } : null;
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

export async function logout(ctx: AppContext, viewer: Viewer | null): Promise<void> {
  if (!viewer) return;
  await accounts.deleteSession(ctx.db, viewer.sessionId);
  await sessionsEnded(ctx, [viewer.sessionId]);
}

export async function accountOf(ctx: AppContext, viewer: Viewer) {
  const user = await accounts.findUserById(ctx.db, viewer.id);
  if (!user) throw unauthorized();
  return user;
}
