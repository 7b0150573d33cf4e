import { z } from 'zod';
import { Id, PathId, Timestamp } from './common.ts';
import {
  AUTHOR_NOTE_MAX_LENGTH,
  CONTENT_MAX_LENGTH,
  MAX_CHAPTERS_PER_BOOK,
  TITLE_MAX_LENGTH,
} from './constants.ts';

const ChapterOrder = z.number().int().min(1).max(1_000_000);

/** A chapter in a list: everything but the content. */
export const ChapterSummary = z
  .object({
    id: z.number(),
    book_id: z.number(),
    title: z.string(),
    chapter_order: z.number(),
    is_published: z.boolean(),
    word_count: z.number(),
    /** Bumped on every change of title or content; send it back in an update to detect stale saves. */
    version: z.number(),
    created_at: Timestamp,
    updated_at: Timestamp,
    /**
     * Issue 20, in the author's answers only: when the chapter's first publication is scheduled
     * (null when it is not). Never in anyone else's answers.
     */
    publish_at: Timestamp.nullable().optional(),
  })
  .meta({ id: 'ChapterSummary' });
export type ChapterSummary = z.infer<typeof ChapterSummary>;

/**
 * A whole chapter. Issue 19 adds, on GET /api/chapters/{id} and the owner's answers,
 * `comments_locked`, `likes`, and `liked` for a signed-in viewer.
 */
export const Chapter = ChapterSummary.extend({
  content: z.string(),
  comments_locked: z.boolean().optional(),
  likes: z.number().optional(),
  liked: z.boolean().optional(),
  /** Issue 20: the author's notes before and after the text, sanitized HTML ('' when none). */
  note_before: z.string().optional(),
  note_after: z.string().optional(),
}).meta({ id: 'Chapter' });
export type Chapter = z.infer<typeof Chapter>;

export const ChaptersResponse = z
  .object({ chapters: z.array(ChapterSummary) })
  .meta({ id: 'ChaptersResponse' });

/**
 * POST /api/books/{id}/chapters. A missing or blank title becomes 'Untitled Chapter', made unique
 * within the book; empty content becomes DEFAULT_CHAPTER_CONTENT; chapter_order defaults to the end.
 */
export const CreateChapterBody = z.object({
  /** Redundant with the path; when sent it must name the same book. */
  book_id: Id.optional(),
  title: z.string().trim().max(TITLE_MAX_LENGTH).nullish(),
  content: z.string().max(CONTENT_MAX_LENGTH).nullish(),
  chapter_order: ChapterOrder.nullish(),
});
export type CreateChapterBody = z.infer<typeof CreateChapterBody>;

/** PUT /api/books/{id}/chapters: every chapter of the book exactly once, in its new order. */
export const ReorderChaptersBody = z.object({
  chapters: z.array(z.object({ id: Id, chapter_order: ChapterOrder })).max(MAX_CHAPTERS_PER_BOOK),
});
export type ReorderChaptersBody = z.infer<typeof ReorderChaptersBody>;

/**
 * An instant with its offset (`2026-11-27T18:00:00Z`, `2026-11-27T19:00:00+01:00`); the server
 * answers it in UTC.
 */
const Instant = z.iso.datetime({ offset: true, message: 'publish_at must be an ISO-8601 instant' });

/** PUT /api/books/{bookId}/chapters/{chapterId}: any of content, title, is_published. */
export const UpdateChapterBody = z
  .object({
    content: z.string().max(CONTENT_MAX_LENGTH).optional(),
    title: z.string().trim().min(1, 'title must not be empty').max(TITLE_MAX_LENGTH).optional(),
    is_published: z.boolean().optional(),
    /** Issue 19: refuse new comments on this chapter (existing ones stay readable). */
    comments_locked: z.boolean().optional(),
    /**
     * Issue 20: schedules the chapter's first publication (a time in the past answers 400); null
     * cancels the schedule. Publishing by hand cancels it too.
     */
    publish_at: Instant.nullable().optional(),
    /** Issue 20: the author's notes, sanitized HTML; '' removes one. */
    note_before: z.string().max(AUTHOR_NOTE_MAX_LENGTH).optional(),
    note_after: z.string().max(AUTHOR_NOTE_MAX_LENGTH).optional(),
    /**
     * Optional optimistic concurrency: the version the edit started from; a stale one answers 409.
     * Versions are 32-bit integers in the database, as ids are.
     */
    version: z.number().int().min(1).max(2_147_483_647).optional(),
    /**
     * Issue 20: the editor's timed save. The kept version is then of kind `autosave`; otherwise
     * `save`, or `publish` when the update publishes.
     */
    autosave: z.boolean().optional(),
  })
  .refine(
    (b) =>
      b.content !== undefined ||
      b.title !== undefined ||
      b.is_published !== undefined ||
      b.comments_locked !== undefined ||
      b.publish_at !== undefined ||
      b.note_before !== undefined ||
      b.note_after !== undefined,
    {
      message:
        'send at least one of content, title, is_published, comments_locked, publish_at, note_before or note_after',
    },
  );
export type UpdateChapterBody = z.infer<typeof UpdateChapterBody>;

export const BookIdParams = z.object({ bookId: PathId });
export const BookChapterParams = z.object({ bookId: PathId, chapterId: PathId });
export const ChapterIdParams = z.object({ chapterId: PathId });
