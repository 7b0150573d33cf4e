import { z } from 'zod';
import { Password, Username } from './accounts.ts';
import {
  BIOGRAPHY_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  RECENT_CHAPTERS_PAGE_SIZE,
  USERNAME_RULE,
} from './constants.ts';
import { BookFilterFields } from './discovery.ts';
import { parseId } from './ids.ts';
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

export const AuthorsResponse = z
  .object({ authors: z.array(AuthorProfile) })
  .meta({ id: 'AuthorsResponse' });

export const AuthorListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
});

/**
 * Every /api/authors/{id} call accepts an id (in its one spelling, ids.ts) or a username
 * (case-insensitive). Anything that can be neither names no author: 404, like an unknown one.
 */
export const AuthorRefParams = z.object({
  id: z
    .string()
    .refine((ref) => parseId(ref) !== undefined || USERNAME_RULE.test(ref), 'no such author'),
});

/** A profile link is an http(s) address or empty; anything else (javascript:, data:, ...) is refused. */
const link = (field: string) =>
  z
    .union([
      z.literal(''),
      z
        .url({
          protocol: /^https?$/,
          hostname: z.regexes.domain,
          error: `${field} must be an http(s) URL or empty`,
        })
        .max(500),
    ])
    .nullish();

/**
 * PUT /api/authors/{id}. Every field is optional; an empty password leaves the password unchanged.
 * A new password needs `current_password` (Inkwell's own field, not the spec's), or a session
 * signed in within the last 10 minutes.
 */
export const UpdateAuthorBody = z.object({
  username: Username.optional(),
  password: z.union([z.literal(''), Password]).nullish(),
  current_password: z.string().max(PASSWORD_MAX_LENGTH).nullish(),
  biography: z.string().max(BIOGRAPHY_MAX_LENGTH).nullish(),
  first_name: z.string().max(NAME_MAX_LENGTH).nullish(),
  last_name: z.string().max(NAME_MAX_LENGTH).nullish(),
  email: z.union([z.literal(''), z.email('email must be a valid address').max(254)]).nullish(),
  twitter_link: link('twitter_link'),
  facebook_link: link('facebook_link'),
  instagram_link: link('instagram_link'),
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

export const RecentChapterList = z.array(RecentChapter);

export const RecentChaptersQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(RECENT_CHAPTERS_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
  filters: BookFilterFields.filters,
});

/** Home page picks, computed from data (or pinned by configuration) instead of hard-coded usernames. */
export const HomePicks = z
  .object({
    author_of_the_month: AuthorProfile.nullable(),
    rising_author: AuthorProfile.nullable(),
    featured_authors: z.array(AuthorProfile),
  })
  .meta({ id: 'HomePicks' });
export type HomePicks = z.infer<typeof HomePicks>;
