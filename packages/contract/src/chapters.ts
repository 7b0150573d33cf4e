import { z } from 'zod';
import { Id, Timestamp } from './common.ts';
import { TITLE_MAX_LENGTH } from './books.ts';

export const DEFAULT_CHAPTER_CONTENT = '<p>Edit Me!</p>';
/** Upper bound on one chapter's HTML: far above any real chapter, well under the 1 MB body limit. */
export const CONTENT_MAX_LENGTH = 900_000;

/** A chapter in a list: everything but the content. */
export const ChapterSummary = z
  .object({
    id: z.number(),
    book_id: z.number(),
    title: z.string(),
    chapter_order: z.number(),
    is_published: z.boolean(),
    word_count: z.number(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'ChapterSummary' });
export type ChapterSummary = z.infer<typeof ChapterSummary>;

export const Chapter = ChapterSummary.extend({ content: z.string() }).meta({ id: 'Chapter' });
export type Chapter = z.infer<typeof Chapter>;

export const ChaptersResponse = z
  .object({ chapters: z.array(ChapterSummary) })
  .meta({ id: 'ChaptersResponse' });

export const CreateChapterBody = z.object({
  book_id: Id.optional(),
  title: z.string().max(TITLE_MAX_LENGTH).optional(),
  content: z.string().max(CONTENT_MAX_LENGTH).nullish(),
  chapter_order: z.number().int().min(1).max(1_000_000).optional(),
});
export type CreateChapterBody = z.infer<typeof CreateChapterBody>;

export const ReorderChaptersBody = z.object({
  chapters: z
    .array(z.object({ id: Id, chapter_order: z.number().int().min(1).max(1_000_000) }))
    .max(10_000),
});
export type ReorderChaptersBody = z.infer<typeof ReorderChaptersBody>;

/** PUT /api/books/{bookId}/chapters/{chapterId}: any of content, title, is_published. */
export const UpdateChapterBody = z
  .object({
    content: z.string().max(CONTENT_MAX_LENGTH).optional(),
    title: z.string().trim().min(1, 'title must not be empty').max(TITLE_MAX_LENGTH).optional(),
    is_published: z.boolean().optional(),
  })
  .refine((b) => b.content !== undefined || b.title !== undefined || b.is_published !== undefined, {
    message: 'send at least one of content, title or is_published',
  });
export type UpdateChapterBody = z.infer<typeof UpdateChapterBody>;

export const BookChapterParams = z.object({ bookId: Id, chapterId: Id });
export const ChapterIdParams = z.object({ chapterId: Id });
