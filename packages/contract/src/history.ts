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

export const ReadHistoryResponse = z.object({ read_history: z.array(ReadHistoryItem) });
