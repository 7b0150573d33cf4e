import { z } from 'zod';
import { Timestamp } from './common.ts';

/** POST /api/my/feed-token: the private feed's address. The token is shown once; rotate to get a new one. */
export const FeedTokenCreated = z
  .object({ url: z.string(), created_at: Timestamp })
  .meta({ id: 'FeedTokenCreated' });
export type FeedTokenCreated = z.infer<typeof FeedTokenCreated>;

/** GET /api/my/feed-token: whether a private feed address is active (the address itself is not stored). */
export const FeedTokenStatus = z
  .object({ active: z.boolean(), created_at: Timestamp.nullable() })
  .meta({ id: 'FeedTokenStatus' });
export type FeedTokenStatus = z.infer<typeof FeedTokenStatus>;

/** Private feed tokens are 43 base64url characters (32 random bytes); anything else names nothing. */
export const FeedTokenParams = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/) });

/** Most entries a feed lists, newest first. */
export const FEED_MAX_ENTRIES = 50;
