import { z } from 'zod';
import { Timestamp } from './common.ts';
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  USERNAME_RULE,
} from './constants.ts';

export const Username = z
  .string({ error: 'username is required' })
  .regex(
    USERNAME_RULE,
    `username must be ${USERNAME_MIN_LENGTH}-${USERNAME_MAX_LENGTH} characters: letters, digits, _, - or .`,
  );

export const Password = z
  .string({ error: 'password is required' })
  .min(PASSWORD_MIN_LENGTH, `password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `password must be at most ${PASSWORD_MAX_LENGTH} characters`);

export const SignupBody = z.object({ username: Username, password: Password });
export type SignupBody = z.infer<typeof SignupBody>;

/** Login takes form fields (the spec's OAuth2-style form) or JSON; validation is lenient, the check is the password. */
export const LoginBody = z.object({
  username: z.string().max(100),
  password: z.string().max(PASSWORD_MAX_LENGTH),
});

/** The signed-in user's own account: includes private fields such as email. */
export const Account = z
  .object({
    id: z.number(),
    username: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    biography: z.string(),
    avatar: z.string().nullable(),
    email: z.string(),
    twitter_link: z.string(),
    facebook_link: z.string(),
    instagram_link: z.string(),
    created_at: Timestamp,
    /** Issue 19: the user is an operator (ADMIN_USERNAMES), who reads reports at /admin/reports. */
    is_operator: z.boolean(),
  })
  .meta({ id: 'Account' });
export type Account = z.infer<typeof Account>;

export const TokenResponse = z
  .object({ access_token: z.string(), token_type: z.literal('bearer') })
  .meta({ id: 'TokenResponse' });

export const SessionResponse = z
  .union([
    z.object({ access_token: z.string(), token_type: z.literal('bearer'), account: Account }),
    z.object({ access_token: z.null() }),
  ])
  .meta({ id: 'SessionResponse' });
export type SessionResponse = z.infer<typeof SessionResponse>;

export const SignupResponse = z
  .object({ access_token: z.string(), token_type: z.literal('bearer'), account: Account })
  .meta({ id: 'SignupResponse' });
