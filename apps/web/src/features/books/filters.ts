import type { BookRating, BookStatus, WarningId } from '@inkwell/contract';
import {
  BOOK_RATINGS,
  BOOK_SORTS,
  BOOK_STATUSES,
  CONTENT_WARNING_IDS,
  SEARCH_SORTS,
} from '@inkwell/contract/constants';
import { normalizeTag, tagKey, tagProblem } from '@inkwell/contract/tags';
import { FILTERS_OFF, FILTERS_PARAM } from '../../lib/filtered.ts';

/**
 * The filters of a book list (issue 21) as they live in the page address: the same names and
 * comma lists the API takes (`?tags=a,b&exclude_warnings=abuse&sort=words`), so a filtered list is
 * shared and bookmarked as it is, and the back button walks through the filters tried.
 */
export interface BookFilters {
  tags: string[];
  exclude_tags: string[];
  exclude_warnings: WarningId[];
  rating: BookRating[];
  status: BookStatus[];
  /** A genre name, on lists that are not a genre's own page. */
  genre: string;
  min_words: number | null;
  /** '' for the list's own default order. */
  sort: string;
}

export const NO_FILTERS: BookFilters = {
  tags: [],
  exclude_tags: [],
  exclude_warnings: [],
  rating: [],
  status: [],
  genre: '',
  min_words: null,
  sort: '',
};

/** Which list the filters are for: search also orders by relevance; a genre page has its genre. */
export type FilterScope = 'books' | 'search' | 'genre';

export const sortsOf = (scope: FilterScope): readonly string[] =>
  scope === 'search' ? SEARCH_SORTS : BOOK_SORTS;

/** The parameters the filters own, in the order they are written. */
const LIST_KEYS = ['tags', 'exclude_tags', 'exclude_warnings', 'rating', 'status'] as const;
const FILTER_KEYS = [...LIST_KEYS, 'genre', 'min_words', 'sort'] as const;

const listOf = (params: URLSearchParams, name: string): string[] =>
  params
    .getAll(name)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');

/** Tags as the server keeps them: normalized, valid, one per spelling regardless of case. */
function uniqueTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags) {
    const tag = normalizeTag(raw);
    if (tagProblem(tag) || seen.has(tagKey(tag))) continue;
    seen.add(tagKey(tag));
    out.push(tag);
  }
  return out;
}

const known = <T extends string>(allowed: readonly T[], values: string[]): T[] =>
  [...new Set(values)].filter((v): v is T => (allowed as readonly string[]).includes(v));

/**
 * An "at least N words" field as typed or as an address has it: null when empty or 0 (no
 * minimum), undefined when it is not a whole count the API takes.
 */
export function parseMinWords(text: string): number | null | undefined {
  const words = text.trim();
  if (words === '') return null;
  if (!/^\d{1,9}$/.test(words)) return undefined;
  return Number(words) || null;
}

/**
 * The filters an address names. What the app would never write (an unknown rating, a sort the
 * list has not, a negative word count) is left out rather than sent on to fail: a hand-edited
 * or stale link still shows a list.
 */
export function readFilters(params: URLSearchParams, scope: FilterScope): BookFilters {
  const sort = params.get('sort') ?? '';
  return {
    tags: uniqueTags(listOf(params, 'tags')),
    exclude_tags: uniqueTags(listOf(params, 'exclude_tags')),
    exclude_warnings: known(CONTENT_WARNING_IDS, listOf(params, 'exclude_warnings')),
    rating: known(BOOK_RATINGS, listOf(params, 'rating')),
    status: known(BOOK_STATUSES, listOf(params, 'status')),
    genre: scope === 'genre' ? '' : (params.get('genre')?.trim() ?? ''),
    min_words: parseMinWords(params.get('min_words') ?? '') ?? null,
    sort: sortsOf(scope).includes(sort) ? sort : '',
  };
}

/** Only the filters set, as query parameters (comma lists), in a fixed order. */
function filterEntries(filters: BookFilters): [string, string][] {
  const entries: [string, string][] = [];
  for (const key of LIST_KEYS) if (filters[key].length) entries.push([key, filters[key].join(',')]);
  if (filters.genre) entries.push(['genre', filters.genre]);
  if (filters.min_words !== null) entries.push(['min_words', String(filters.min_words)]);
  if (filters.sort) entries.push(['sort', filters.sort]);
  return entries;
}

/**
 * The page address with `filters` in place of the ones it had. Everything else stays (the search
 * words), except "show anyway", which was for the list as it was.
 */
export function writeFilters(params: URLSearchParams, filters: BookFilters): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of FILTER_KEYS) next.delete(key);
  next.delete(FILTERS_PARAM);
  for (const [key, value] of filterEntries(filters)) next.append(key, value);
  return next;
}

/**
 * The filters as the API takes them, with `filters=off` for "show anyway": also the list's query
 * key, so each combination is kept apart.
 */
export function apiFilterQuery(filters: BookFilters, filtersOff: boolean): string {
  const query = new URLSearchParams(filterEntries(filters));
  if (filtersOff) query.set(FILTERS_PARAM, FILTERS_OFF);
  return query.toString();
}

/** How many filters narrow the list (the panel's summary says so); the order is not one. */
export const activeFilterCount = (filters: BookFilters): number =>
  filterEntries(filters).filter(([key]) => key !== 'sort').length;
