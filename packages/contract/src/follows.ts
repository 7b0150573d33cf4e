import { z } from 'zod';
import { AuthorProfile } from './authors.ts';
import { Id } from './common.ts';

export const FollowBody = z.object({ author_id: Id });
export type FollowBody = z.infer<typeof FollowBody>;

export const Follow = z.object({ author_id: z.number() }).meta({ id: 'Follow' });

/** GET /api/my/follows: the followed authors' public profiles, most recently followed first. */
export const FollowedAuthors = z.array(AuthorProfile);

/** GET /api/authors/{id}/is-following answers a bare JSON boolean, as the spec's client reads it. */
export const IsFollowing = z.boolean();
