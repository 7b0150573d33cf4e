import { z } from 'zod';
import { TITLE_MAX_LENGTH } from './constants.ts';
import { Timestamp } from './common.ts';

/** Imports one user may have queued or running at once, across all server processes. */
export const IMPORT_MAX_ACTIVE_PER_USER = 3;

export const IMPORT_FORMATS = ['epub', 'docx', 'markdown', 'html', 'text'] as const;
export const ImportFormat = z.enum(IMPORT_FORMATS);
export type ImportFormat = z.infer<typeof ImportFormat>;

export const IMPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export const ImportStatus = z.enum(IMPORT_STATUSES);
export type ImportStatus = z.infer<typeof ImportStatus>;

/**
 * An import job. Poll GET /api/imports/{id} until status is done (book_id names the new,
 * unpublished book) or failed (message says why, naming the problem with the file).
 */
export const ImportJob = z
  .object({
    id: z.number(),
    status: ImportStatus,
    /** 0 to 1. */
    progress: z.number(),
    /** What the job is doing now, or why it failed. */
    message: z.string(),
    /** Set once the book exists; while running it is still being filled. */
    book_id: z.number().nullable(),
    filename: z.string(),
    format: ImportFormat,
    keep_front_matter: z.boolean(),
    chapter_count: z.number().nullable(),
    /** Title and author as the file declared them (the book belongs to the importing user). */
    source_title: z.string().nullable(),
    source_author: z.string().nullable(),
    /** Things the import skipped or could not use, e.g. an unreadable cover. */
    warnings: z.array(z.string()),
    created_at: Timestamp,
    updated_at: Timestamp,
    finished_at: Timestamp.nullable(),
  })
  .meta({ id: 'ImportJob' });
export type ImportJob = z.infer<typeof ImportJob>;

export const ImportJobList = z
  .object({ imports: z.array(ImportJob) })
  .meta({ id: 'ImportJobList' });

const flag = z
  .enum(['true', 'false', '1', '0', 'on', 'off', 'yes', 'no', ''])
  .transform((v) => ['true', '1', 'on', 'yes'].includes(v));

/** Where a proposed chapter stands in the book: before the story, the story, or after it. */
export const IMPORT_CHAPTER_KINDS = ['front', 'body', 'back'] as const;
export const ImportChapterKind = z.enum(IMPORT_CHAPTER_KINDS);
export type ImportChapterKind = z.infer<typeof ImportChapterKind>;

/** One chapter the file would become, as POST /api/imports/preview proposes it. */
export const ImportPreviewChapter = z
  .object({
    /** Its place in the proposal, from 0: what an ImportPlan names it by. */
    index: z.number(),
    title: z.string(),
    words: z.number(),
    /** front and back matter (title page, copyright, notes...) are proposed unticked. */
    kind: ImportChapterKind,
    /** Whether it is imported when the author changes nothing (matter only with keep_front_matter). */
    included: z.boolean(),
    /** The first words of its text, to recognize it by. */
    opening: z.string(),
  })
  .meta({ id: 'ImportPreviewChapter' });
export type ImportPreviewChapter = z.infer<typeof ImportPreviewChapter>;

/** What a file would be imported as; nothing is stored. */
export const ImportPreview = z
  .object({
    filename: z.string(),
    format: ImportFormat,
    keep_front_matter: z.boolean(),
    /** The new book's title (made unique among the author's books when created). */
    title: z.string(),
    source_title: z.string().nullable(),
    source_author: z.string().nullable(),
    chapters: z.array(ImportPreviewChapter),
    warnings: z.array(z.string()),
  })
  .meta({ id: 'ImportPreview' });
export type ImportPreview = z.infer<typeof ImportPreview>;

const chapterIndex = z.number().int().min(0);

/**
 * The author's choices about the proposed chapters, by their preview `index`. From the proposal
 * as it stands (matter left out unless keep_front_matter): `skip` leaves chapters out, `keep`
 * takes matter in, `merge` puts a chapter's text (under its title) at the start of the next
 * imported chapter, `rename` retitles. `chapter_count`, the number of chapters previewed, makes
 * the import fail rather than apply the choices to a file that reads differently.
 */
export const ImportPlan = z
  .object({
    skip: z.array(chapterIndex).max(10_000).default([]),
    keep: z.array(chapterIndex).max(10_000).default([]),
    merge: z.array(chapterIndex).max(10_000).default([]),
    rename: z
      .array(
        z.object({
          index: chapterIndex,
          title: z.string().trim().min(1, 'title must not be empty').max(TITLE_MAX_LENGTH),
        }),
      )
      .max(10_000)
      .default([]),
    chapter_count: z.number().int().min(0).optional(),
  })
  .strict()
  .meta({ id: 'ImportPlan' });
export type ImportPlan = z.infer<typeof ImportPlan>;

/** An ImportPlan sent as a multipart text field: JSON. */
const planField = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be an ImportPlan written as JSON' });
      return z.NEVER;
    }
  })
  .pipe(ImportPlan);

/** The text fields that may accompany the multipart `file` of POST /api/imports (and its preview). */
export const ImportFields = z.object({
  keep_front_matter: flag.default(false),
  /** Overrides detection by file name and content. */
  format: ImportFormat.optional(),
  /** The author's choices after a preview; without it the proposal is imported as it stands. */
  plan: planField.optional(),
});
export type ImportFields = z.infer<typeof ImportFields>;
