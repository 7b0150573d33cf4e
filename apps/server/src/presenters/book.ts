import type { Book } from '@inkwell/contract';
import { CONTENT_WARNING_IDS } from '@inkwell/contract/constants';
import { fromFlag, fromJsonList } from '../lib/convert.ts';
import type { Selectable } from 'kysely';
import type { BooksTable } from '../db/schema.ts';

/** What a book card is made of: the book, its author's public names, its genres and chapter count. */
export interface BookCardRow extends Pick<
  Selectable<BooksTable>,
  | 'id'
  | 'title'
  | 'summary'
  | 'cover'
  | 'is_published'
  | 'author_id'
  | 'published_at'
  | 'created_at'
  | 'updated_at'
  | 'rating'
  | 'status'
  | 'words'
> {
  author_username: string;
  author_first_name: string;
  author_last_name: string;
  /** A JSON array: parsed by the driver on PostgreSQL, text on SQLite. */
  genres: string[] | string;
  /** A scalar subquery's count: typed nullable by Kysely, never null in fact. */
  chapter_count: number | null;
  /** JSON arrays, as `genres`: tag names in the author's order, warning ids. */
  tags: string[] | string;
  warnings: string[] | string;
}

const WARNING_ORDER = new Map<string, number>(CONTENT_WARNING_IDS.map((id, i) => [id, i]));
const byWarningOrder = (a: string, b: string) =>
  (WARNING_ORDER.get(a) ?? 0) - (WARNING_ORDER.get(b) ?? 0);

export function toBook(row: BookCardRow): Book {
  return {
    id: row.id,
    title: row.title,
    summary: row.summary,
    cover: row.cover,
    is_published: fromFlag(row.is_published),
    author_id: row.author_id,
    author_username: row.author_username,
    username: row.author_username,
    author_first_name: row.author_first_name,
    first_name: row.author_first_name,
    author_last_name: row.author_last_name,
    last_name: row.author_last_name,
    genres: fromJsonList(row.genres),
    chapter_count: Number(row.chapter_count),
    created_at: row.created_at,
    updated_at: row.updated_at,
    published_at: row.published_at,
    tags: fromJsonList(row.tags),
    warnings: fromJsonList(row.warnings).sort(byWarningOrder) as Book['warnings'],
    rating: row.rating,
    status: row.status,
    words: Number(row.words),
  };
}
