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

/** Resolves a raw token to the viewer it belongs to, or null when it is unknown or expired. */
export async function viewerForToken(ctx: AppContext, token: string): Promise<Viewer | null> {
  const session = await accounts.findLiveSession(ctx.db, hashToken(token), nowIso());
  return session
    ? { id: session.user_id, username: session.username, sessionId: session.session_id }
    : null;
}

export async function logout(ctx: AppContext, viewer: Viewer | null): Promise<void> {
  if (viewer) await accounts.deleteSession(ctx.db, viewer.sessionId);
}

export async function accountOf(ctx: AppContext, viewer: Viewer) {
  const user = await accounts.findUserById(ctx.db, viewer.id);
  if (!user) throw unauthorized();
  return user;
}
