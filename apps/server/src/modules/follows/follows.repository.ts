import type { DbHandle } from '../../db/kysely.ts';
import { PROFILE_COLUMNS } from '../../presenters/user.ts';

export async function isFollowing(db: DbHandle, followerId: number, authorId: number) {
  const row = await db
    .selectFrom('follows')
    .select('author_id')
    .where('follower_id', '=', followerId)
    .where('author_id', '=', authorId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertFollow(
  db: DbHandle,
  follow: { followerId: number; authorId: number; now: string },
) {
  await db
    .insertInto('follows')
    .values({ follower_id: follow.followerId, author_id: follow.authorId, created_at: follow.now })
    .execute();
}

/** Answers whether a follow was there to delete. */
export async function deleteFollow(db: DbHandle, followerId: number, authorId: number) {
  const result = await db
    .deleteFrom('follows')
    .where('follower_id', '=', followerId)
    .where('author_id', '=', authorId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Profiles of the authors a user follows, most recently followed first. */
export async function listFollowedProfiles(db: DbHandle, followerId: number) {
  return db
    .selectFrom('follows')
    .innerJoin('users', 'users.id', 'follows.author_id')
    .select(PROFILE_COLUMNS)
    .where('follows.follower_id', '=', followerId)
    .orderBy('follows.created_at', 'desc')
    .orderBy('users.id', 'desc')
    .execute();
}
