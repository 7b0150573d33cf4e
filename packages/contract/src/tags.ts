import { TAG_MAX_LENGTH } from './constants.ts';

/**
 * A tag as it is kept and compared (issue 21): trimmed, inner white space collapsed to one space.
 * Zod-free, so the web app's tag input normalizes exactly as the server does.
 */
export function normalizeTag(tag: string): string {
  return tag.trim().replace(/\s+/gu, ' ');
}

/** The key that makes two spellings one tag: case does not count. */
export function tagKey(tag: string): string {
  return normalizeTag(tag).toLowerCase();
}

/** Why a tag is refused, or null when it is fine (after normalizeTag). */
export function tagProblem(tag: string): string | null {
  const normal = normalizeTag(tag);
  if (normal.length === 0) return 'a tag must not be empty';
  if (tagLength(normal) > TAG_MAX_LENGTH) return `a tag is at most ${TAG_MAX_LENGTH} characters`;
  // Filters take tags as a comma-separated list (`tags=a,b`): a tag holding one could not be asked for.
  if (normal.includes(',')) return 'a tag must not contain a comma';
  return null;
}

/** A tag's length in characters (code points), as the issue counts it: an emoji is one, not two. */
export function tagLength(tag: string): number {
  return [...tag].length;
}
