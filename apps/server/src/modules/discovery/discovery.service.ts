import type { BookFilter, MyFilters, TagsResponse, UpdateMyFiltersBody } from '@inkwell/contract';
import {
  CONTENT_WARNINGS,
  TAG_SUGGESTIONS_MAX,
  type ContentWarningId,
} from '@inkwell/contract/constants';
import { tagKey } from '@inkwell/contract/tags';
import { NO_EXCLUSIONS, type Exclusions, type ListFilter } from '../../access/book-filters.ts';
import type { AppContext, ReadContext, Viewer } from '../../context.ts';
import { nowIso } from '../../lib/convert.ts';
import { badRequest } from '../../lib/errors.ts';
import * as discovery from './discovery.repository.ts';

/** GET /api/warnings: the fixed list (constants.ts), in its order. */
export const warningList = () => ({
  warnings: CONTENT_WARNINGS.map(({ id, name }) => ({ id, name })),
});

/** GET /api/tags?q=: tags of published books starting with `q` (any case), most used first. */
export async function tagSuggestions(ctx: AppContext, q: string): Promise<TagsResponse> {
  return { tags: await discovery.tagSuggestions(ctx.db, tagKey(q), TAG_SUGGESTIONS_MAX) };
}

interface Saved {
  exclude_tags: string[];
  exclude_warnings: ContentWarningId[];
  exclude_ratings: MyFilters['exclude_ratings'];
  muted_author_ids: number[];
}

const EMPTY: Saved = {
  exclude_tags: [],
  exclude_warnings: [],
  exclude_ratings: [],
  muted_author_ids: [],
};

async function savedOf(ctx: ReadContext, userId: number): Promise<Saved> {
  const row = await discovery.findSavedFilters(ctx.db, userId);
  if (!row) return EMPTY;
  return {
    exclude_tags: JSON.parse(row.exclude_tags) as string[],
    exclude_warnings: JSON.parse(row.exclude_warnings) as ContentWarningId[],
    exclude_ratings: JSON.parse(row.exclude_ratings) as Saved['exclude_ratings'],
    muted_author_ids: JSON.parse(row.muted_author_ids) as number[],
  };
}

/** GET /api/my/filters: muted authors by their current usernames (an account gone drops out). */
export async function getMyFilters(ctx: AppContext, viewer: Viewer): Promise<MyFilters> {
  const saved = await savedOf(ctx, viewer.id);
  const users = await discovery.usernamesByIds(ctx.db, saved.muted_author_ids);
  const nameById = new Map(users.map((u) => [u.id, u.username]));
  return {
    exclude_tags: saved.exclude_tags,
    exclude_warnings: saved.exclude_warnings,
    exclude_ratings: saved.exclude_ratings,
    muted_authors: saved.muted_author_ids.flatMap((id) => nameById.get(id) ?? []),
  };
}

/** Keeps the first of each value, by `key`. */
const unique = <T>(values: readonly T[], key: (v: T) => unknown = (v) => v) => {
  const seen = new Set<unknown>();
  return values.filter((v) => !seen.has(key(v)) && seen.add(key(v)));
};

/**
 * PUT /api/my/filters: the lists sent replace the saved ones, those left out stay. A username no
 * account has is refused (400 naming it): a typo would otherwise mute nobody without a word.
 */
export async function updateMyFilters(
  ctx: AppContext,
  viewer: Viewer,
  body: UpdateMyFiltersBody,
): Promise<MyFilters> {
  let mutedIds: number[] | undefined;
  if (body.muted_authors !== undefined) {
    const names = unique(body.muted_authors, (u) => u.toLowerCase());
    const users = await discovery.usersByUsernames(ctx.db, names);
    const idByName = new Map(users.map((u) => [u.username_lower, u.id]));
    const unknown = names.filter((u) => !idByName.has(u.toLowerCase()));
    if (unknown.length > 0)
      throw badRequest(
        `muted_authors: no author is called ${unknown.map((u) => `"${u}"`).join(', ')}`,
        'muted_authors',
      );
    mutedIds = names.map((u) => idByName.get(u.toLowerCase())!);
  }
  // Only the lists the body names are written: the others stay as stored.
  await discovery.saveFilters(ctx.db, viewer.id, {
    ...(body.exclude_tags !== undefined && {
      exclude_tags: JSON.stringify(unique(body.exclude_tags, tagKey)),
    }),
    ...(body.exclude_warnings !== undefined && {
      exclude_warnings: JSON.stringify(unique(body.exclude_warnings)),
    }),
    ...(body.exclude_ratings !== undefined && {
      exclude_ratings: JSON.stringify(unique(body.exclude_ratings)),
    }),
    ...(mutedIds !== undefined && { muted_author_ids: JSON.stringify(mutedIds) }),
    updated_at: nowIso(),
  });
  return getMyFilters(ctx, viewer);
}

/** The ids the site's tags have, by key, for every tag these lists name: one read for all. */
async function tagIdsFor(ctx: ReadContext, ...lists: ReadonlyArray<readonly string[]>) {
  const keys = [...new Set(lists.flat().map(tagKey))];
  const idsByKey = await discovery.tagIdsByKey(ctx.db, keys);
  /** The ids of the tags `names` names that exist (a tag nowhere excludes and matches nothing). */
  return (names: readonly string[]) => {
    const wanted = [...new Set(names.map(tagKey))];
    return {
      ids: wanted.flatMap((key) => idsByKey.get(key) ?? []),
      allKnown: wanted.every((key) => idsByKey.has(key)),
    };
  };
}

/** Saved exclusions as the list conditions take them, with their tags' ids. */
const exclusionsOf = (
  saved: Saved,
  tagIds: (names: readonly string[]) => { ids: number[] },
): Exclusions => ({
  tagIds: tagIds(saved.exclude_tags).ids,
  warnings: saved.exclude_warnings,
  ratings: saved.exclude_ratings,
  authorIds: saved.muted_author_ids,
});

/** The exclusions a reader saved, as the list conditions take them. */
export async function savedExclusions(ctx: ReadContext, userId: number): Promise<Exclusions> {
  const saved = await savedOf(ctx, userId);
  return exclusionsOf(saved, await tagIdsFor(ctx, saved.exclude_tags));
}

/**
 * What a list shows this viewer: the request's filters and, for a signed-in reader who did not
 * send `filters=off`, their saved exclusions. The tags of all three are looked up in one read.
 */
export async function listFilterFor(
  ctx: ReadContext,
  viewer: Viewer | null,
  request: BookFilter = {},
): Promise<ListFilter & { noSuchTag: boolean }> {
  const saved = viewer && request.filters !== 'off' ? await savedOf(ctx, viewer.id) : null;
  const tagIds = await tagIdsFor(
    ctx,
    request.tags ?? [],
    request.exclude_tags ?? [],
    saved?.exclude_tags ?? [],
  );
  const required = tagIds(request.tags ?? []);
  return {
    filter: request,
    tagIds: { required: required.ids, excluded: tagIds(request.exclude_tags ?? []).ids },
    exclusions: saved ? exclusionsOf(saved, tagIds) : NO_EXCLUSIONS,
    noSuchTag: !required.allKnown,
  };
}
