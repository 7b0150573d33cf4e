import { z } from 'zod';
import {
  BOOK_RATINGS,
  BOOK_SORTS,
  BOOK_STATUSES,
  BOOK_TAGS_MAX,
  CONTENT_WARNING_IDS,
  FILTER_LIST_MAX,
  SEARCH_SORTS,
  TAG_MAX_LENGTH,
} from './constants.ts';
import { normalizeTag, tagKey, tagLength, tagProblem } from './tags.ts';

/*
 * Issue 21: tags, warnings, rating and status on books; filters on lists and search; a reader's
 * saved exclusions. The issue's paths and fields are kept exactly.
 */

export const BookRating = z.enum(BOOK_RATINGS);
export type BookRating = z.infer<typeof BookRating>;
export const BookStatus = z.enum(BOOK_STATUSES);
export type BookStatus = z.infer<typeof BookStatus>;
export const WarningId = z.enum(CONTENT_WARNING_IDS);
export type WarningId = z.infer<typeof WarningId>;

/** One tag in a request: normalized (normalizeTag), 1–TAG_MAX_LENGTH characters. */
export const TagName = z
  .string()
  .transform(normalizeTag)
  .superRefine((tag, ctx) => {
    const problem = tagProblem(tag);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** A book's tags in PUT /api/books/{id}: at most BOOK_TAGS_MAX, unique regardless of case. */
export const BookTags = z
  .array(TagName)
  .max(BOOK_TAGS_MAX, `a book has at most ${BOOK_TAGS_MAX} tags`)
  .refine((tags) => new Set(tags.map(tagKey)).size === tags.length, {
    message: 'tags must be unique (case does not count)',
  });

/** GET /api/warnings. */
export const ContentWarning = z.object({ id: WarningId, name: z.string() }).meta({ id: 'Warning' });
export const WarningsResponse = z
  .object({ warnings: z.array(ContentWarning) })
  .meta({ id: 'WarningsResponse' });
export type WarningsResponse = z.infer<typeof WarningsResponse>;

/** GET /api/tags?q=prefix: tags of published books, most used first. */
export const TagsQuery = z.object({
  q: z
    .string()
    .refine((q) => tagLength(q) <= TAG_MAX_LENGTH, `at most ${TAG_MAX_LENGTH} characters`)
    .default(''),
});
export const TagCount = z.object({ name: z.string(), books: z.number() }).meta({ id: 'TagCount' });
export const TagsResponse = z.object({ tags: z.array(TagCount) }).meta({ id: 'TagsResponse' });
export type TagsResponse = z.infer<typeof TagsResponse>;

/** A comma-separated list in a query string (`tags=a,b`); a repeated parameter also works. */
function commaList<T extends z.ZodType<unknown, string>>(item: T) {
  return z
    .union([z.string(), z.array(z.string())])
    .transform((v) =>
      (Array.isArray(v) ? v : [v])
        .flatMap((s) => s.split(','))
        .map((s) => s.trim())
        .filter((s) => s.length > 0),
    )
    .pipe(z.array(item).max(FILTER_LIST_MAX));
}

/**
 * The filters GET /api/books, GET /api/books/search and the genre lists take. Unknown tags match
 * nothing; a bad rating, status, warning, sort or number answers 400 naming the parameter.
 * `filters=off` leaves the viewer's saved exclusions out for this one request.
 */
export const BookFilterFields = {
  tags: commaList(TagName).optional(),
  exclude_tags: commaList(TagName).optional(),
  exclude_warnings: commaList(WarningId).optional(),
  rating: commaList(BookRating).optional(),
  status: commaList(BookStatus).optional(),
  genre: z.string().trim().min(1).max(100).optional(),
  min_words: z.coerce.number().int().min(0).max(1_000_000_000).optional(),
  filters: z.enum(['on', 'off']).optional(),
};
/** The query of a list with no filters of its own: only `filters=off` (home, an author's books, followed books). */
export const FiltersSwitchQuery = z.object({ filters: BookFilterFields.filters });
export const BookSort = z.enum(BOOK_SORTS);
export type BookSort = z.infer<typeof BookSort>;
export const SearchSort = z.enum(SEARCH_SORTS);
export type SearchSort = z.infer<typeof SearchSort>;

/** What a filter narrows to, as the server reads it: the parsed BookFilterFields. */
export type BookFilter = z.output<z.ZodObject<typeof BookFilterFields>>;

/** Why a search hit matched, when chapter text did (issue 21, "Search that shows why"). */
export const SearchMatch = z
  .object({
    chapter_id: z.number().nullable(),
    chapter_title: z.string().nullable(),
    /** 0-based block index of the chapter, as reading positions and comments count it. */
    paragraph: z.number().nullable(),
    /** Plain text, HTML-escaped, with the matched words in <mark>: safe to render as HTML. */
    snippet: z.string(),
  })
  .meta({ id: 'SearchMatch' });
export type SearchMatch = z.infer<typeof SearchMatch>;

/** GET and PUT /api/my/filters: a signed-in reader's saved exclusions, applied everywhere. */
export const MyFilters = z
  .object({
    exclude_tags: z.array(z.string()),
    exclude_warnings: z.array(WarningId),
    exclude_ratings: z.array(BookRating),
    /** Usernames. */
    muted_authors: z.array(z.string()),
  })
  .meta({ id: 'MyFilters' });
export type MyFilters = z.infer<typeof MyFilters>;
/**
 * PUT /api/my/filters: any of the four lists, each replacing the saved one; a missing one is left
 * as it was. Tags are normalized as a book's are; an unknown username answers 400 naming it.
 */
export const UpdateMyFiltersBody = z
  .object({
    exclude_tags: z.array(TagName).max(FILTER_LIST_MAX),
    exclude_warnings: z.array(WarningId).max(FILTER_LIST_MAX),
    exclude_ratings: z.array(BookRating).max(BOOK_RATINGS.length),
    muted_authors: z.array(z.string().min(1).max(100)).max(FILTER_LIST_MAX),
  })
  .partial();
export type UpdateMyFiltersBody = z.infer<typeof UpdateMyFiltersBody>;
