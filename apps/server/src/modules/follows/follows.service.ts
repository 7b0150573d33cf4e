import type { AuthorProfile } from '@inkwell/contract';
import type { AppContext, Viewer } from '../../context.ts';
import { nowIso } from '../../lib/convert.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { toAuthorProfile } from '../../presenters/user.ts';
import { findAuthor } from '../authors/authors.service.ts';
import { assertNotBlockedBy } from '../blocks/blocks.service.ts';
import * as follows from './follows.repository.ts';

const ALREADY_FOLLOWING = 'You already follow this author';

export async function listFollowedAuthors(
  ctx: AppContext,
  viewer: Viewer,
): Promise<AuthorProfile[]> {
  return (await follows.listFollowedProfiles(ctx.db, viewer.id)).map(toAuthorProfile);
}

export async function isFollowing(
  ctx: AppContext,
  viewer: Viewer,
  authorRef: string,
): Promise<boolean> {
  const author = await findAuthor(ctx.db, authorRef);
  return follows.isFollowing(ctx.db, viewer.id, author.id);
}

/** Follows an author and tells them (through the event bus) once the follow is stored. */
export async function follow(ctx: AppContext, viewer: Viewer, authorId: number): Promise<void> {
  if (authorId === viewer.id) throw badRequest('You cannot follow yourself');
  await findAuthor(ctx.db, authorId);
  // A user the author blocked may not follow them (issue 19), so never notifies them either.
  await assertNotBlockedBy(ctx, authorId, viewer.id);
  if (await follows.isFollowing(ctx.db, viewer.id, authorId)) throw conflict(ALREADY_FOLLOWING);
  try {
    await follows.insertFollow(ctx.db, { followerId: viewer.id, authorId, now: nowIso() });
  } catch (error) {
    // Two identical follows racing: the primary key decides, and the loser hears 409.
    if (await follows.isFollowing(ctx.db, viewer.id, authorId)) throw conflict(ALREADY_FOLLOWING);
    throw error;
  }
  await ctx.events.publish({
    type: 'author.followed',
    authorId,
    followerId: viewer.id,
    followerUsername: viewer.username,
  });
}

export async function unfollow(ctx: AppContext, viewer: Viewer, authorId: number): Promise<void> {
  if (!(await follows.deleteFollow(ctx.db, viewer.id, authorId))) {
    throw notFound('You do not follow this author');
  }
}
