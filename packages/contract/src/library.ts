import { z } from 'zod';
import { Id, Timestamp } from './common.ts';
import { SHELF_STATUSES } from './constants.ts';

/** A reading status as the API speaks it: a shelf, or 'none' for "on no shelf". */
export const ReadingStatus = z.enum([...SHELF_STATUSES, 'none']);
export type ReadingStatus = z.infer<typeof ReadingStatus>;

/** The fields of a book a library card needs. */
export const LibraryBook = z
  .object({
    id: z.number(),
    title: z.string(),
    summary: z.string(),
    cover: z.string().nullable(),
    is_published: z.boolean(),
    author_id: z.number(),
    author_username: z.string(),
    author_first_name: z.string(),
    author_last_name: z.string(),
  })
  .meta({ id: 'LibraryBook' });
export type LibraryBook = z.infer<typeof LibraryBook>;

/** Chapters read (distinct published chapters in the reader's history) of the published total. */
export const ChapterProgress = z
  .object({ chapters_read: z.number(), total_chapters: z.number() })
  .meta({ id: 'ChapterProgress' });
export type ChapterProgress = z.infer<typeof ChapterProgress>;

/** Where the reader stopped: a chapter, the index of a paragraph in it, and an offset into that paragraph. */
export const ReadingPosition = z
  .object({
    chapter_id: z.number(),
    chapter_title: z.string(),
    chapter_order: z.number(),
    paragraph: z.number(),
    offset: z.number(),
    updated_at: Timestamp,
  })
  .meta({ id: 'ReadingPosition' });
export type ReadingPosition = z.infer<typeof ReadingPosition>;

/** One book in the reader's library. A book never shelved answers status 'none' and owned false. */
export const LibraryEntry = z
  .object({
    book: LibraryBook,
    status: ReadingStatus,
    owned: z.boolean(),
    progress: ChapterProgress,
    /** Null when the saved position points at a chapter the reader can no longer open. */
    position: ReadingPosition.nullable(),
    /** The later of the last history record and the last saved position; null when never read. */
    last_read_at: Timestamp.nullable(),
    /** When the status or owned flag last changed; null for a book not in the library. */
    updated_at: Timestamp.nullable(),
  })
  .meta({ id: 'LibraryEntry' });
export type LibraryEntry = z.infer<typeof LibraryEntry>;

/**
 * GET /api/my/library: one list per shelf, plus `owned` (every owned book, whatever its status).
 * Each list is ordered by last activity, most recent first.
 */
export const LibraryResponse = z
  .object({
    shelves: z.object({
      reading: z.array(LibraryEntry),
      want_to_read: z.array(LibraryEntry),
      finished: z.array(LibraryEntry),
      dropped: z.array(LibraryEntry),
      owned: z.array(LibraryEntry),
    }),
  })
  .meta({ id: 'LibraryResponse' });
export type LibraryResponse = z.infer<typeof LibraryResponse>;

/** PUT /api/my/library/{bookId}: status 'none' with owned false removes the book from the library. */
export const UpdateLibraryEntryBody = z
  .object({ status: ReadingStatus.optional(), owned: z.boolean().optional() })
  .refine((b) => b.status !== undefined || b.owned !== undefined, {
    message: 'send status, owned or both',
  });
export type UpdateLibraryEntryBody = z.infer<typeof UpdateLibraryEntryBody>;

/** PUT /api/my/progress/{bookId}: the client debounces; the last write wins. */
export const SaveProgressBody = z.object({
  chapter_id: Id,
  paragraph: z.number().int().min(0).max(1_000_000),
  offset: z.number().int().min(0).max(100_000_000),
});
export type SaveProgressBody = z.infer<typeof SaveProgressBody>;

/** GET and PUT /api/my/progress/{bookId}: the position for "Continue reading", and chapters read. */
export const ReadingProgress = z
  .object({
    book_id: z.number(),
    position: ReadingPosition.nullable(),
    progress: ChapterProgress,
    last_read_at: Timestamp.nullable(),
  })
  .meta({ id: 'ReadingProgress' });
export type ReadingProgress = z.infer<typeof ReadingProgress>;
