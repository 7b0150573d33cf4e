/**
 * Title rules of SPEC section 5 for new books and chapters, shared with the workspace.
 * Comparisons are case-insensitive; ' (n)' counts up from 1 until the title is free.
 */
import { DEFAULT_CHAPTER_TITLE } from '@inkwell/contract/constants';

const DEFAULT_BOOK_TITLE = 'Untitled Book';

const fold = (title: string) => title.trim().toLocaleLowerCase();

export function hasTitle(existing: readonly string[], title: string): boolean {
  const wanted = fold(title);
  return existing.some((t) => fold(t) === wanted);
}

export function uniqueTitle(existing: readonly string[], base: string): string {
  if (!hasTitle(existing, base)) return base;
  for (let n = 1; ; n++) {
    const candidate = `${base} (${n})`;
    if (!hasTitle(existing, candidate)) return candidate;
  }
}

/**
 * The title a new book gets, or null when nothing should be sent: a typed title that equals an
 * existing one is refused (the form is cleared); an empty one becomes a unique 'Untitled Book'.
 */
export function newBookTitle(existing: readonly string[], typed: string): string | null {
  const title = typed.trim();
  if (!title) return uniqueTitle(existing, DEFAULT_BOOK_TITLE);
  return hasTitle(existing, title) ? null : title;
}

export const newChapterTitle = (existing: readonly string[]): string =>
  uniqueTitle(existing, DEFAULT_CHAPTER_TITLE);

/** The browser tab title of a page. */
export const documentTitle = (page?: string): string => (page ? `${page} · Inkwell` : 'Inkwell');

/** An author as the spec shows them: first and last name, or the username if both are empty. */
export function displayName(person: {
  username: string;
  first_name?: string | null;
  last_name?: string | null;
}): string {
  const full = [person.first_name, person.last_name]
    .filter((p) => p && p.trim())
    .join(' ')
    .trim();
  return full || person.username;
}
