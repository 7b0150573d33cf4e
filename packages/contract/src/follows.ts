import { z } from 'zod';
import { AuthorProfile } from './authors.ts';
import { Id } from './common.ts';

export const FollowBody = z.object({ author_id: Id });
export type FollowBody = z.infer<typeof FollowBody>;

/** POST /api/follows: the followed author; `is_following` as the original backend answered. */
export const Follow = z
  .object({ author_id: z.number(), is_following: z.literal(true) })
  .meta({ id: 'Follow' });

/** DELETE /api/follows; `is_not_following` as the original backend answered. */
export const Unfollow = z
  .object({ detail: z.string(), is_not_following: z.literal(true) })
  .meta({ id: 'Unfollow' });

/**
 * GET /api/my/follows: `{authors}`, the followed authors' public profiles, most recently followed
 * first. Wrapped, as the original backend answers and the spec's own client reads it.
 */
export const FollowedAuthors = z
  .object({ authors: z.array(AuthorProfile) })
  .meta({ id: 'FollowedAuthors' });
export type FollowedAuthors = z.infer<typeof FollowedAuthors>;

/** GET /api/authors/{id}/is-following answers a bare JSON boolean, as the spec's client reads it. */
export const IsFollowing = z.boolean();
