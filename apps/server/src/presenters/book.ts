import type { Book } from '@inkwell/contract';
import { fromFlag, fromJsonList } from '../lib/convert.ts';
import type { BookRow } from '../modules/books/books.repository.ts';

export function toBook(row: BookRow): Book {
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
  };
}
