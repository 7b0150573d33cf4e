import { z } from 'zod';
import { Timestamp } from './common.ts';
import {
  BOOK_PAGE_SIZE,
  SEARCH_PAGE_SIZE,
  SUMMARY_MAX_LENGTH,
  TITLE_MAX_LENGTH,
} from './constants.ts';
import { normalizeSearchText } from './search-text.ts';
import {
  BookFilterFields,
  BookRating,
  BookSort,
  BookStatus,
  BookTags,
  SearchMatch,
  SearchSort,
  WarningId,
} from './discovery.ts';

/**
 * A book as every list and detail call answers it. The spec's client reads the author's names
 * under two spellings (author_username and username, ...), so both are sent.
 */
export const Book = z
  .object({
    id: z.number(),
    title: z.string(),
    summary: z.string(),
    cover: z.string().nullable(),
    is_published: z.boolean(),
    author_id: z.number(),
    author_username: z.string(),
    username: z.string(),
    author_first_name: z.string(),
    first_name: z.string(),
    author_last_name: z.string(),
    last_name: z.string(),
    genres: z.array(z.string()),
    chapter_count: z.number(),
    created_at: Timestamp,
    updated_at: Timestamp,
    published_at: Timestamp.nullable(),
    /** Issue 19, on GET /api/books/{id} (and the owner's answers): new comments are refused. */
    comments_locked: z.boolean().optional(),
    /** Issue 19, on GET /api/books/{id}: how many readers follow the book. */
    followers: z.number().optional(),
    /** Issue 19, on GET /api/books/{id} for a signed-in viewer: whether they follow it. */
    following: z.boolean().optional(),
    /** Issue 21: the author's free tags, each in the site's first spelling, in the author's order. */
    tags: z.array(z.string()),
    /** Issue 21: ids from GET /api/warnings, in that list's order. */
    warnings: z.array(WarningId),
    rating: BookRating,
    status: BookStatus,
    /** Issue 21: words in the book's published chapters (what min_words and sort=words use). */
    words: z.number(),
  })
  .meta({ id: 'Book' });
export type Book = z.infer<typeof Book>;

export const BookList = z.array(Book);

export const CreateBookBody = z.object({
  title: z.string().trim().min(1, 'title must not be empty').max(TITLE_MAX_LENGTH),
});

export const UpdateBookBody = z.object({
  title: z.string().trim().min(1, 'title must not be empty').max(TITLE_MAX_LENGTH).optional(),
  summary: z.string().max(SUMMARY_MAX_LENGTH).nullish(),
  is_published: z.boolean().optional(),
  comments_locked: z.boolean().optional(),
  tags: BookTags.optional(),
  warnings: z.array(WarningId).max(20).optional(),
  rating: BookRating.optional(),
  status: BookStatus.optional(),
});
export type UpdateBookBody = z.infer<typeof UpdateBookBody>;

/** GET /api/books: the spec's paging, and issue 21's filters and order (default: updated). */
export const BookListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(BOOK_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
  ...BookFilterFields,
  sort: BookSort.optional(),
});

/**
 * `q` is never refused (issue 23 §5): any text, repeated or not, is made into a query by
 * normalizeSearchText (controls dropped, cut to SEARCH_QUERY_MAX_LENGTH characters).
 */
export const SearchQuery = z.object({
  q: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((q) => normalizeSearchText(q)),
  limit: z.coerce.number().int().min(1).max(100).default(SEARCH_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
  ...BookFilterFields,
  sort: SearchSort.default('relevance'),
});

/**
 * Query-string fields that take any text, by the schema that reads them. That schema makes a query
 * of whatever was sent (normalizeSearchText drops NUL and lone surrogates), so the server's text
 * guard, which refuses such text anywhere else with a 400, leaves these fields to it.
 */
export const FREE_TEXT_QUERY_FIELDS = new Map<z.ZodType, readonly string[]>([[SearchQuery, ['q']]]);

/** A search hit: a book card and why it matched (issue 21; null when only its document did). */
export const SearchHit = Book.extend({ match: SearchMatch.nullable() }).meta({
  id: 'SearchHit',
});
export type SearchHit = z.infer<typeof SearchHit>;
export const SearchResponse = z
  .object({
    books: z.array(SearchHit),
    /** Issue 21: books the signed-in reader's saved exclusions removed (as the hidden header). */
    hidden: z.number(),
  })
  .meta({ id: 'SearchResponse' });
export type SearchResponse = z.infer<typeof SearchResponse>;

export const PopularBook = z
  .object({
    book_id: z.number(),
    title: z.string(),
    cover: z.string().nullable(),
    readers: z.number(),
  })
  .meta({ id: 'PopularBook' });
export const PopularResponse = z.object({ popular: z.array(PopularBook) });

export const GenreParams = z.object({ genre: z.string().min(1).max(100) });
/**
 * GET /api/books/genres/{genre}: the filters and sorts of /api/books (the path names the genre;
 * a `genre` parameter is not read), no paging, as the spec's route.
 */
export const GenreBooksQuery = z
  .object({ ...BookFilterFields, sort: BookSort.optional() })
  .omit({ genre: true });
