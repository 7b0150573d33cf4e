import type { Chapter, ChapterSummary, ReadHistoryItem } from '@inkwell/contract';
import { fromFlag } from '../lib/convert.ts';
import type { Selectable } from 'kysely';
import type { ChaptersTable, Flag } from '../db/schema.ts';

/** A chapter's columns that a list shows. */
export type ChapterSummaryRow = Pick<
  Selectable<ChaptersTable>,
  | 'id'
  | 'book_id'
  | 'title'
  | 'chapter_order'
  | 'is_published'
  | 'word_count'
  | 'version'
  | 'created_at'
  | 'updated_at'
  | 'publish_at'
>;

/** One entry of a reader's history: the chapter and its book, with when it was read. */
export interface ReadHistoryRow {
  book_id: number;
  book_title: string;
  book_cover: string | null;
  chapter_id: number;
  chapter_title: string;
  read_at: string;
}

/**
 * A chapter in a list. Whitelists fields, so content never slips into a list by accident. The
 * scheduled publication goes to the book's author only (`owner`), and so does the stored
 * `chapter_order`: anyone else is told the chapter's `reading_order` (access/visibility.ts), its
 * place among the published chapters, which the reader's queries select.
 */
export function toChapterSummary(
  row: ChapterSummaryRow & { reading_order?: number },
  owner = false,
): ChapterSummary {
  return {
    id: row.id,
    book_id: row.book_id,
    title: row.title,
    chapter_order: owner ? row.chapter_order : readersOrder(row),
    is_published: fromFlag(row.is_published),
    word_count: row.word_count,
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...(owner && { publish_at: row.publish_at }),
  };
}

function readersOrder(row: { id: number; reading_order?: number }): number {
  // A reader's query that forgot it would otherwise show the stored order, drafts counted.
  if (row.reading_order === undefined)
    throw new Error(`chapter ${row.id} was read for a reader without its reading_order`);
  return row.reading_order;
}

/**
 * A whole chapter: any row with the summary's columns and the content (a read, or a save's
 * RETURNING). `comments_locked` is the chapter's own lock (issue 19; its book may lock comments
 * too); `liked` is only for a signed-in viewer.
 */
export function toChapter(
  row: ChapterSummaryRow & {
    reading_order?: number;
    content: string;
    comments_locked: Flag;
    note_before: string;
    note_after: string;
  },
  social: { likes: number; liked?: boolean },
  owner = false,
): Chapter {
  return {
    ...toChapterSummary(row, owner),
    content: row.content,
    note_before: row.note_before,
    note_after: row.note_after,
    comments_locked: fromFlag(row.comments_locked),
    likes: social.likes,
    ...(social.liked !== undefined && { liked: social.liked }),
  };
}

export function toReadHistoryItem(row: ReadHistoryRow): ReadHistoryItem {
  return {
    book_id: row.book_id,
    book_title: row.book_title,
    book_cover: row.book_cover,
    chapter_id: row.chapter_id,
    chapter_title: row.chapter_title,
    read_at: row.read_at,
  };
}
