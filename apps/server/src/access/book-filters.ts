import type { BookFilter, BookSort } from '@inkwell/contract';
import { sql, type Expression, type SqlBool } from 'kysely';

/**
 * Which books a list shows beyond publication (issue 21): the filters a request asks for, and the
 * exclusions a signed-in reader saved, as SQL conditions on the book row under `books`. Lists
 * (books.repository.ts) and both search engines build their conditions here only, so a filter
 * means the same on every list, in search, and on SQLite and PostgreSQL alike.
 */

/** A reader's saved exclusions as the conditions need them (tags and authors by id). */
export interface Exclusions {
  tagIds: readonly number[];
  warnings: readonly string[];
  ratings: readonly string[];
  authorIds: readonly number[];
}

export const NO_EXCLUSIONS: Exclusions = { tagIds: [], warnings: [], ratings: [], authorIds: [] };

export const hasExclusions = (ex: Exclusions): boolean =>
  ex.tagIds.length + ex.warnings.length + ex.ratings.length + ex.authorIds.length > 0;

const TRUE = sql<SqlBool>`1 = 1`;
const FALSE = sql<SqlBool>`1 = 0`;
const ref = (alias: string, name: string) => sql.ref(`${alias}.${name}`);
const inList = (values: readonly (string | number)[]) => sql.join(values.map((v) => sql`${v}`));

/**
 * A tag the list asks for, as the set of its books rather than a check on each book: SQLite can
 * then start from the tag's books (its index on book_tags) and sort those few, where a per-book
 * check made it walk the sort's index through every book until a page of matches came by.
 * PostgreSQL plans both shapes alike (it turns either into a join). The planner's statistics
 * choose, which is why tags come as ids: only a constant `tag_id` lets them see how many books
 * carry the tag. Reached through its key, every tag looked like the average one, and a tag on a
 * third of the books was read book by book before sorting rather than met on the sort's index.
 */
const hasTag = (tagId: number, books: string) =>
  sql<SqlBool>`${ref(books, 'id')} in (select bt.book_id from book_tags bt
    where bt.tag_id = ${tagId})`;
const hasAnyTag = (tagIds: readonly number[], books: string) =>
  sql<SqlBool>`exists (select 1 from book_tags bt
    where bt.book_id = ${ref(books, 'id')} and bt.tag_id in (${inList(tagIds)}))`;
const hasAnyWarning = (warnings: readonly string[], books: string) =>
  sql<SqlBool>`exists (select 1 from book_warnings bw
    where bw.book_id = ${ref(books, 'id')} and bw.warning in (${inList(warnings)}))`;

function all(conditions: Expression<SqlBool>[]): Expression<SqlBool> {
  return conditions.length === 0 ? TRUE : sql<SqlBool>`(${sql.join(conditions, sql` and `)})`;
}

/** The request's own filters: every listed tag, none of the excluded ones, and so on. */
function bookMatchesFilter(list: ListFilter, books = 'books'): Expression<SqlBool> {
  const { filter, tagIds } = list;
  const conditions: Expression<SqlBool>[] = [];
  for (const id of tagIds.required) conditions.push(hasTag(id, books));
  if (tagIds.excluded.length) conditions.push(sql`not ${hasAnyTag(tagIds.excluded, books)}`);
  if (filter.exclude_warnings?.length)
    conditions.push(sql`not ${hasAnyWarning(filter.exclude_warnings, books)}`);
  if (filter.rating?.length)
    conditions.push(sql`${ref(books, 'rating')} in (${inList(filter.rating)})`);
  if (filter.status?.length)
    conditions.push(sql`${ref(books, 'status')} in (${inList(filter.status)})`);
  if (filter.min_words !== undefined)
    conditions.push(sql`${ref(books, 'words')} >= ${filter.min_words}`);
  if (filter.genre !== undefined)
    conditions.push(sql`exists (select 1 from book_genres bg join genres g on g.id = bg.genre_id
      where bg.book_id = ${ref(books, 'id')} and lower(g.name) = ${filter.genre.toLowerCase()})`);
  return all(conditions);
}

/** Books some saved exclusion removes: any of its conditions holds. */
function excludedConditions(ex: Exclusions, books: string): Expression<SqlBool>[] {
  const conditions: Expression<SqlBool>[] = [];
  if (ex.tagIds.length) conditions.push(hasAnyTag(ex.tagIds, books));
  if (ex.warnings.length) conditions.push(hasAnyWarning(ex.warnings, books));
  if (ex.ratings.length) conditions.push(sql`${ref(books, 'rating')} in (${inList(ex.ratings)})`);
  if (ex.authorIds.length)
    conditions.push(sql`${ref(books, 'author_id')} in (${inList(ex.authorIds)})`);
  return conditions;
}

/**
 * Whether the exclusions leave an author in where authors themselves are listed (home's author
 * picks): the muted-author part of `excludedConditions`, for rows that are not books.
 */
export const authorShown = (ex: Exclusions, authorId: number): boolean =>
  !ex.authorIds.includes(authorId);

/** The books a reader's saved exclusions leave in a list. */
export function notExcluded(ex: Exclusions, books = 'books'): Expression<SqlBool> {
  const excluded = excludedConditions(ex, books);
  return excluded.length === 0 ? TRUE : sql<SqlBool>`not (${sql.join(excluded, sql` or `)})`;
}

/** The books they take out of it: what the hidden count counts. */
export function excludedBy(ex: Exclusions, books = 'books'): Expression<SqlBool> {
  const excluded = excludedConditions(ex, books);
  return excluded.length === 0 ? FALSE : sql<SqlBool>`(${sql.join(excluded, sql` or `)})`;
}

/**
 * What each sort orders books by, largest first (ties go to the newer book): lists and search
 * alike. `updated` is when a chapter was last first published (migration 0015).
 */
const SORT_COLUMNS = {
  updated: 'chapter_published_at',
  new: 'published_at',
  popular: 'reader_count',
  words: 'words',
  followers: 'follower_count',
} as const satisfies Record<BookSort, string>;

export const sortColumn = (sort: BookSort, books = 'books') =>
  sql.ref(`${books}.${SORT_COLUMNS[sort]}`);

/** A list's condition: the request's filters and, unless switched off, the saved exclusions. */
export interface ListFilter {
  /** The request's filters; its `tags` and `exclude_tags` are read from `tagIds` only. */
  filter: BookFilter;
  /** The request's tags and excluded tags as the ids of tags the site has. */
  tagIds: { required: readonly number[]; excluded: readonly number[] };
  exclusions: Exclusions;
  /**
   * The request asks for a tag (`tags=`) no book on the site has: nothing can match, and the
   * condition says so as a constant, which both engines answer without reading a book (rather
   * than walking the sort's index checking each book for a tag that is nowhere).
   */
  noSuchTag?: boolean;
}

export const NO_FILTER: ListFilter = {
  filter: {},
  tagIds: { required: [], excluded: [] },
  exclusions: NO_EXCLUSIONS,
};

/** The request's own filters of a list (`bookMatchesFilter`, false at once for an unknown tag). */
export function requestCondition(list: ListFilter, books = 'books'): Expression<SqlBool> {
  return list.noSuchTag ? FALSE : bookMatchesFilter(list, books);
}

export function listCondition(list: ListFilter, books = 'books'): Expression<SqlBool> {
  return all([requestCondition(list, books), notExcluded(list.exclusions, books)]);
}

/** What the hidden count counts: books the request's filters keep and the exclusions remove. */
export function hiddenCondition(list: ListFilter, books = 'books'): Expression<SqlBool> {
  return all([requestCondition(list, books), excludedBy(list.exclusions, books)]);
}

/**
 * `hiddenCondition`, driven from the exclusions' side: the ids of the books some exclusion names,
 * each part read from its index (a tag's books, a warning's, a rating's, an author's), so that
 * counting what a reader hides costs what they hide, not the whole library.
 */
export function hiddenAmong(list: ListFilter, books = 'books'): Expression<SqlBool> {
  const ex = list.exclusions;
  const parts: Expression<unknown>[] = [];
  if (ex.tagIds.length)
    parts.push(sql`select bt.book_id from book_tags bt where bt.tag_id in (${inList(ex.tagIds)})`);
  if (ex.warnings.length)
    parts.push(
      sql`select bw.book_id from book_warnings bw where bw.warning in (${inList(ex.warnings)})`,
    );
  if (ex.ratings.length)
    parts.push(sql`select r.id from books r where r.rating in (${inList(ex.ratings)})`);
  if (ex.authorIds.length)
    parts.push(sql`select a.id from books a where a.author_id in (${inList(ex.authorIds)})`);
  if (parts.length === 0) return FALSE;
  return all([
    sql<SqlBool>`${ref(books, 'id')} in (${sql.join(parts, sql` union `)})`,
    requestCondition(list, books),
  ]);
}
