import { z } from 'zod';
import { PathId, Timestamp } from './common.ts';
import { REVISION_KINDS } from './constants.ts';

/** Issue 20: a kept version of a chapter, as its author's History lists it (newest first). */
export const RevisionSummary = z
  .object({
    id: z.number(),
    created_at: Timestamp,
    words: z.number(),
    kind: z.enum(REVISION_KINDS),
  })
  .meta({ id: 'RevisionSummary' });
export type RevisionSummary = z.infer<typeof RevisionSummary>;

export const RevisionsResponse = z
  .object({ revisions: z.array(RevisionSummary) })
  .meta({ id: 'RevisionsResponse' });
export type RevisionsResponse = z.infer<typeof RevisionsResponse>;

/** GET /api/chapters/{id}/revisions/{rid}: the version's title and sanitized HTML too. */
export const Revision = RevisionSummary.extend({
  title: z.string(),
  content: z.string(),
}).meta({ id: 'Revision' });
export type Revision = z.infer<typeof Revision>;

export const RevisionParams = z.object({ id: PathId, revisionId: PathId });

/**
 * GET /api/chapters/{id}/revisions answers the newest REVISIONS_LIST_LIMIT versions; `before`
 * (a version id) pages back to the ones older than it.
 */
export const RevisionsQuery = z.object({ before: PathId.optional() });

/** A chapter its author deleted, restorable until `purge_at` (DELETED_CHAPTER_DAYS). */
export const DeletedChapter = z
  .object({
    id: z.number(),
    book_id: z.number(),
    title: z.string(),
    /** Its place in the reading order when it was deleted; a restore puts it back there. */
    chapter_order: z.number(),
    is_published: z.boolean(),
    word_count: z.number(),
    deleted_at: Timestamp,
    purge_at: Timestamp,
  })
  .meta({ id: 'DeletedChapter' });
export type DeletedChapter = z.infer<typeof DeletedChapter>;

export const DeletedChaptersResponse = z
  .object({ chapters: z.array(DeletedChapter) })
  .meta({ id: 'DeletedChaptersResponse' });
export type DeletedChaptersResponse = z.infer<typeof DeletedChaptersResponse>;

export const DeletedChapterParams = z.object({ id: PathId, chapterId: PathId });
