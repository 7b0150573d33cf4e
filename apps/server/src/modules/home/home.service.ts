import type { AuthorProfile, BookFilter, HomePicks } from '@inkwell/contract';
import { authorShown } from '../../access/book-filters.ts';
import type { AppContext, Viewer } from '../../context.ts';
import type { DbHandle } from '../../db/kysely.ts';
import { daysAgoIso } from '../../lib/convert.ts';
import { profilesByIds, profilesByUsernames } from '../authors/authors.service.ts';
import { listFilterFor } from '../discovery/discovery.service.ts';
import * as home from './home.repository.ts';

export const NEW_FOLLOWERS_DAYS = 30;
export const NEW_READERS_DAYS = 30;
export const RISING_DEBUT_DAYS = 90;
export const FEATURED_AUTHORS_LIMIT = 6;

/**
 * The pinned usernames that exist, in the order given; when none of them do (or none are pinned),
 * the computed ranking instead, so a typo in the configuration never empties the home page.
 */
async function pick(db: DbHandle, pinned: readonly string[], computeIds: () => Promise<number[]>) {
  const found = await profilesByUsernames(db, pinned);
  if (found.length > 0) return found;
  return profilesByIds(db, await computeIds());
}

const first = (profiles: AuthorProfile[]) => profiles[0] ?? null;

/**
 * The home page's author picks. A signed-in reader's muted authors (issue 21's saved exclusions)
 * are left out (a muted pick leaves its place empty), unless `filters` is 'off'.
 */
export async function homePicks(
  ctx: AppContext,
  viewer: Viewer | null,
  filters: BookFilter['filters'],
): Promise<HomePicks> {
  const { exclusions } = await listFilterFor(ctx, viewer, { filters });
  const shown = (profiles: AuthorProfile[]) =>
    profiles.filter((p) => authorShown(exclusions, p.id));
  const { db, config } = ctx;
  const pinned = (username: string | undefined) => (username ? [username] : []);
  const [authorOfTheMonth, risingAuthor, featuredAuthors] = await Promise.all([
    pick(db, pinned(config.HOME_AUTHOR_OF_THE_MONTH), () =>
      home.authorsByFollowers(db, { since: daysAgoIso(NEW_FOLLOWERS_DAYS), limit: 1 }),
    ),
    pick(db, pinned(config.HOME_RISING_AUTHOR), () =>
      home.risingAuthors(db, {
        debutSince: daysAgoIso(RISING_DEBUT_DAYS),
        readSince: daysAgoIso(NEW_READERS_DAYS),
        limit: 1,
      }),
    ),
    pick(db, config.HOME_FEATURED_AUTHORS, () =>
      home.authorsByFollowers(db, { limit: FEATURED_AUTHORS_LIMIT }),
    ),
  ]);
  return {
    author_of_the_month: first(shown(authorOfTheMonth)),
    rising_author: first(shown(risingAuthor)),
    featured_authors: shown(featuredAuthors),
  };
}
