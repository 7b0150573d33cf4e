import type { Account, AuthorProfile } from '@inkwell/contract';
import type { Selectable } from 'kysely';
import type { UsersTable } from '../db/schema.ts';

type UserRow = Selectable<UsersTable>;

type ProfileRow = Pick<
  UserRow,
  | 'id'
  | 'username'
  | 'first_name'
  | 'last_name'
  | 'biography'
  | 'avatar'
  | 'twitter_link'
  | 'facebook_link'
  | 'instagram_link'
>;

/** Public face of a user. Whitelists fields, so a new column never leaks by accident. */
export function toAuthorProfile(row: ProfileRow): AuthorProfile {
  return {
    id: row.id,
    username: row.username,
    first_name: row.first_name,
    last_name: row.last_name,
    biography: row.biography,
    avatar: row.avatar,
    twitter_link: row.twitter_link,
    facebook_link: row.facebook_link,
    instagram_link: row.instagram_link,
  };
}

/**
 * The signed-in user's own view of their account; `isOperator` comes from the ADMIN_USERNAMES
 * setting (access/policy.ts).
 */
export function toAccount(
  row: ProfileRow & Pick<UserRow, 'email' | 'created_at'>,
  isOperator: boolean,
): Account {
  return {
    ...toAuthorProfile(row),
    email: row.email,
    created_at: row.created_at,
    is_operator: isOperator,
  };
}

export const PROFILE_COLUMNS = [
  'users.id',
  'users.username',
  'users.first_name',
  'users.last_name',
  'users.biography',
  'users.avatar',
  'users.twitter_link',
  'users.facebook_link',
  'users.instagram_link',
] as const;
