/**
 * The unfinished imports ImportWatch follows, kept in localStorage per account: a reload or a new
 * tab starts with an empty query cache, and an import started before it would otherwise not be
 * followed (the workspace never learnt its book arrived). Only ids are kept; the server is asked
 * about them, and only when there are some, so an app load with nothing running asks nothing.
 *
 * The key holds the account's id: another account signed in on the same browser does not inherit
 * the list. localStorage may be missing or throw (privacy modes, a full quota): then imports are
 * followed for the page's life only.
 */

/** At most this many ids are kept, the newest: a list no one empties cannot grow forever. */
export const FOLLOWED_IMPORTS_MAX = 20;

export const followedImportsKey = (accountId: number) => `inkwell.followed-imports.${accountId}`;

const isJobId = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

/** The ids kept for the account, oldest first (none when storage is unreadable or altered). */
export function followedImports(accountId: number): number[] {
  try {
    const parsed: unknown = JSON.parse(storage()?.getItem(followedImportsKey(accountId)) ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return [...new Set(parsed.filter(isJobId))].slice(-FOLLOWED_IMPORTS_MAX);
  } catch {
    return [];
  }
}

function keep(accountId: number, ids: number[]): void {
  try {
    const key = followedImportsKey(accountId);
    if (ids.length === 0) storage()?.removeItem(key);
    else storage()?.setItem(key, JSON.stringify(ids.slice(-FOLLOWED_IMPORTS_MAX)));
  } catch {
    // Not kept: followed until the page is left, as without storage.
  }
}

/** Keeps the ids not kept yet (written only when one is new). */
export function followImports(accountId: number, ids: readonly number[]): void {
  const kept = followedImports(accountId);
  const added = [...new Set(ids)].filter((id) => isJobId(id) && !kept.includes(id));
  if (added.length > 0) keep(accountId, [...kept, ...added]);
}

/** Drops ids: their jobs ended, or the server refused to say (not this account's, or gone). */
export function unfollowImports(accountId: number, ids: readonly number[]): void {
  const kept = followedImports(accountId);
  const left = kept.filter((id) => !ids.includes(id));
  if (left.length < kept.length) keep(accountId, left);
}

/** The account signed out: nothing of it is followed on the next load. */
export function forgetFollowedImports(accountId: number): void {
  keep(accountId, []);
}
