import { z } from 'zod';
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

/** The text fields that may accompany the multipart `file` of POST /api/imports. */
export const ImportFields = z.object({
  keep_front_matter: flag.default(false),
  /** Overrides detection by file name and content. */
  format: ImportFormat.optional(),
});
export type ImportFields = z.infer<typeof ImportFields>;
