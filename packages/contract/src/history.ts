import { z } from 'zod';
import { Timestamp } from './common.ts';

export const ReadHistoryItem = z
  .object({
    book_id: z.number(),
    book_title: z.string(),
    book_cover: z.string().nullable(),
    chapter_id: z.number(),
    chapter_title: z.string(),
    read_at: Timestamp,
  })
  .meta({ id: 'ReadHistoryItem' });
export type ReadHistoryItem = z.infer<typeof ReadHistoryItem>;

export const ReadHistoryResponse = z
  .object({ read_history: z.array(ReadHistoryItem) })
  .meta({ id: 'ReadHistoryResponse' });

/** GET /api/my/history: newest first. The spec's client sends no paging, so the default covers it. */
export const ReadHistoryQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(1000),
  offset: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
});

/** The answer to recording a read. */
export const ReadRecord = z
  .object({ book_id: z.number(), chapter_id: z.number(), read_at: Timestamp })
  .meta({ id: 'ReadRecord' });
export type ReadRecord = z.infer<typeof ReadRecord>;
