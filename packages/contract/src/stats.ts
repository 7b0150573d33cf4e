import { z } from 'zod';
import { VIEW_SESSION_MAX_LENGTH } from './constants.ts';
import { PathId } from './common.ts';

/*
 * Issue 20, "Who keeps reading": the author's statistics of a book and the visitor's view beacon
 * (docs/decisions/0034-reader-stats.md). Figures under the privacy floor (STATS_PRIVACY_FLOOR
 * readers) are null: the web app says "fewer than 5 readers".
 */

/** A figure shown only when enough readers stand behind it. */
const Floored = z.number().nullable();

/** Followers at the end of one UTC day (today: now). */
export const FollowerDay = z.object({ date: z.string(), count: z.number() });
export type FollowerDay = z.infer<typeof FollowerDay>;

export const FollowerStats = z.object({
  now: z.number(),
  /** One entry per UTC day, oldest first, ending today. */
  daily: z.array(FollowerDay),
});
export type FollowerStats = z.infer<typeof FollowerStats>;

/** A published chapter's figures; all null when fewer than the floor reached it. */
export const ChapterStats = z.object({
  chapter_id: z.number(),
  order: z.number(),
  title: z.string(),
  readers: Floored,
  likes: Floored,
  comments: Floored,
});
export type ChapterStats = z.infer<typeof ChapterStats>;

/** The share (0..1) of the first chapter's readers who reached this chapter. */
export const RetentionPoint = z.object({
  chapter_id: z.number(),
  order: z.number(),
  share: Floored,
});
export type RetentionPoint = z.infer<typeof RetentionPoint>;

/** How many readers' saved progress stops at each paragraph (0-based) of one chapter. */
export const ParagraphDropoff = z.object({
  chapter_id: z.number(),
  paragraphs: z.array(z.object({ paragraph: z.number(), readers: Floored })),
});
export type ParagraphDropoff = z.infer<typeof ParagraphDropoff>;

/** GET /api/my/books/{id}/stats[?chapter=] (owner only). */
export const BookStats = z
  .object({
    book_id: z.number(),
    followers: FollowerStats,
    chapters: z.array(ChapterStats),
    retention: z.array(RetentionPoint),
    /** Only with ?chapter=; null otherwise. */
    paragraph_dropoff: ParagraphDropoff.nullable(),
  })
  .meta({ id: 'BookStats' });
export type BookStats = z.infer<typeof BookStats>;

export const BookStatsQuery = z.object({ chapter: PathId.optional() });

/** POST /api/chapters/{id}/view: a visitor's browser session saw the chapter. */
export const ViewBody = z.object({
  session: z
    .string()
    .min(8)
    .max(VIEW_SESSION_MAX_LENGTH)
    .regex(/^[A-Za-z0-9_-]+$/, 'a session id is letters, digits, - and _'),
});
export type ViewBody = z.infer<typeof ViewBody>;
