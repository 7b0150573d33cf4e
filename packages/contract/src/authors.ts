import { z } from 'zod';
import { Password, Username } from './accounts.ts';
import { Timestamp } from './common.ts';

/** What anyone may see of an author. Email is private and appears only in the owner's Account. */
export const AuthorProfile = z
  .object({
    id: z.number(),
    username: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    biography: z.string(),
    avatar: z.string().nullable(),
    twitter_link: z.string(),
    facebook_link: z.string(),
    instagram_link: z.string(),
  })
  .meta({ id: 'AuthorProfile' });
export type AuthorProfile = z.infer<typeof AuthorProfile>;

export const AuthorsResponse = z.object({ authors: z.array(AuthorProfile) });

/** GET /api/authors/{id} accepts a numeric id or a username. */
export const AuthorRefParams = z.object({ id: z.string().min(1).max(100) });

const optionalLink = z.string().max(500).optional();

/** PUT /api/authors/{id}. Every field is optional; an empty password leaves the password unchanged. */
export const UpdateAuthorBody = z.object({
  username: Username.optional(),
  password: z.union([z.literal(''), Password]).nullish(),
  biography: z.string().max(10_000).nullish(),
  first_name: z.string().max(100).nullish(),
  last_name: z.string().max(100).nullish(),
  email: z.union([z.literal(''), z.email('email must be a valid address').max(254)]).nullish(),
  twitter_link: optionalLink,
  facebook_link: optionalLink,
  instagram_link: optionalLink,
});
export type UpdateAuthorBody = z.infer<typeof UpdateAuthorBody>;

/** A row of the Recent Work tab: a published chapter with its book's cover. */
export const RecentChapter = z
  .object({
    id: z.number(),
    title: z.string(),
    book_id: z.number(),
    book_title: z.string(),
    cover: z.string().nullable(),
    chapter_order: z.number(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'RecentChapter' });
export type RecentChapter = z.infer<typeof RecentChapter>;

/** Home page picks, computed from data (or pinned by configuration) instead of hard-coded usernames. */
export const HomePicks = z
  .object({
    author_of_the_month: AuthorProfile.nullable(),
    rising_author: AuthorProfile.nullable(),
    featured_authors: z.array(AuthorProfile),
  })
  .meta({ id: 'HomePicks' });
export type HomePicks = z.infer<typeof HomePicks>;
