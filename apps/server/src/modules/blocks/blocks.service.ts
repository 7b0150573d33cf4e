import type { ListedUser } from '@inkwell/contract';
import type { AppContext, Viewer } from '../../context.ts';
import { nowIso } from '../../lib/convert.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { profilesByUsernames } from '../authors/authors.service.ts';
import { dropFollowsOfBlocker } from '../follows/book-follows.service.ts';
import * as lists from './blocks.repository.ts';
import type { ListKind } from './blocks.repository.ts';

export type { ListKind };

/** The user of this username (any case); 404 when there is none. A username is never an id here. */
async function userNamed(
  ctx: Pick<AppContext, 'db'>,
  username: string,
): Promise<{ id: number; username: string }> {
  const [user] = await profilesByUsernames(ctx.db, [username]);
  if (!user) throw notFound('User not found');
  return user;
}

const SELF_REFUSED: Record<ListKind, string> = {
  block: 'You cannot block yourself',
  mute: 'You cannot mute yourself',
};

/** Puts a user (by username) on the viewer's block or mute list; a repeat changes nothing. */
export async function addToList(
  ctx: Pick<AppContext, 'db' | 'events'>,
  viewer: Viewer,
  kind: ListKind,
  username: string,
): Promise<void> {
  const user = await userNamed(ctx, username);
  if (user.id === viewer.id) throw badRequest(SELF_REFUSED[kind]);
  await ctx.db.transaction().execute(async (trx) => {
    await lists.insertEntry(trx, kind, viewer.id, user.id, nowIso());
    // A block also ends the blocked user's follows of the blocker and of their books (they
    // could not follow anew while blocked, so keeping old follows would be the one way round
    // it); a mute hides lines from the muter only and touches nothing else.
    if (kind === 'block') await dropFollowsOfBlocker(trx, user.id, viewer.id);
  });
  await announce(ctx, viewer, kind, user, true);
}

/** Tells every process's chat rooms (see `user.listed` in realtime/events.ts). */
function announce(
  ctx: Pick<AppContext, 'events'>,
  viewer: Viewer,
  kind: ListKind,
  user: { id: number },
  listed: boolean,
): Promise<void> {
  return ctx.events.publish({
    type: 'user.listed',
    kind,
    ownerId: viewer.id,
    userId: user.id,
    listed,
  });
}

/** Takes a user off the viewer's list; 404 when they were not on it. */
export async function removeFromList(
  ctx: Pick<AppContext, 'db' | 'events'>,
  viewer: Viewer,
  kind: ListKind,
  username: string,
): Promise<void> {
  const user = await userNamed(ctx, username);
  if (!(await lists.deleteEntry(ctx.db, kind, viewer.id, user.id))) {
    throw notFound(
      kind === 'block' ? 'You have not blocked this user' : 'You have not muted this user',
    );
  }
  await announce(ctx, viewer, kind, user, false);
}

export async function listUsers(
  ctx: Pick<AppContext, 'db'>,
  viewer: Viewer,
  kind: ListKind,
): Promise<ListedUser[]> {
  return lists.listEntries(ctx.db, kind, viewer.id);
}

/** What refuses a blocked user on the author's things, and closes their socket in the author's room. */
export const BLOCKED_DETAIL = 'The author has blocked you';

/** The lists of these owners: each owner's id to the ids on their list (absent: none). */
export async function listsOf(
  ctx: Pick<AppContext, 'db'>,
  kind: ListKind,
  ownerIds: readonly number[],
): Promise<Map<number, Set<number>>> {
  const byOwner = new Map<number, Set<number>>();
  for (const [owner, other] of await lists.entriesOf(ctx.db, kind, [...new Set(ownerIds)])) {
    const list = byOwner.get(owner) ?? new Set<number>();
    list.add(other);
    byOwner.set(owner, list);
  }
  return byOwner;
}

/** Whether `authorId` blocked `userId`. */
export function isBlockedBy(
  ctx: Pick<AppContext, 'db'>,
  authorId: number,
  userId: number,
): Promise<boolean> {
  return lists.hasEntry(ctx.db, 'block', authorId, userId);
}

/**
 * Refuses (403) what a user blocked by an author may not do on the author's things: comment,
 * like, follow the author or their books.
 */
export async function assertNotBlockedBy(
  ctx: Pick<AppContext, 'db'>,
  authorId: number,
  userId: number,
): Promise<void> {
  if (authorId !== userId && (await isBlockedBy(ctx, authorId, userId))) {
    throw forbidden(BLOCKED_DETAIL);
  }
}
