import type {
  Book,
  LibraryBook,
  LibraryEntry,
  ReadingPosition,
  ReadingProgress,
} from '@inkwell/contract';
import { fromFlag } from '../../lib/convert.ts';
import type { LibraryRow } from './library.repository.ts';

function positionOf(row: LibraryRow): ReadingPosition | null {
  if (row.position_chapter_id == null) return null;
  return {
    chapter_id: row.position_chapter_id,
    chapter_title: row.position_chapter_title ?? '',
    chapter_order: row.position_chapter_order ?? 0,
    paragraph: row.position_paragraph ?? 0,
    offset: row.position_offset ?? 0,
    updated_at: row.position_updated_at ?? '',
  };
}

/** ISO timestamps sort as text, so the later of two is the larger string. */
function later(a: string | null | undefined, b: string | null | undefined): string | null {
  if (!a) return b ?? null;
  if (!b) return a;
  return a > b ? a : b;
}

const progressOf = (row: LibraryRow) => ({
  chapters_read: Number(row.chapters_read ?? 0),
  total_chapters: Number(row.total_chapters ?? 0),
});

/** The fields of the book card (the books service's) that a library entry carries. */
function toLibraryBook(book: Book): LibraryBook {
  return {
    id: book.id,
    title: book.title,
    summary: book.summary,
    cover: book.cover,
    is_published: book.is_published,
    author_id: book.author_id,
    author_username: book.author_username,
    author_first_name: book.author_first_name,
    author_last_name: book.author_last_name,
  };
}

export function toLibraryEntry(row: LibraryRow, book: Book): LibraryEntry {
  return {
    book: toLibraryBook(book),
    status: row.status ?? 'none',
    owned: fromFlag(row.owned ?? 0),
    progress: progressOf(row),
    position: positionOf(row),
    last_read_at: later(row.last_history_at, row.position_updated_at),
    updated_at: row.entry_updated_at ?? null,
  };
}

export function toReadingProgress(row: LibraryRow): ReadingProgress {
  return {
    book_id: row.id,
    position: positionOf(row),
    progress: progressOf(row),
    last_read_at: later(row.last_history_at, row.position_updated_at),
  };
}

/** Most recent activity first: reading, then shelving. */
export function byRecentActivity(a: LibraryEntry, b: LibraryEntry): number {
  const activity = (e: LibraryEntry) => later(e.last_read_at, e.updated_at) ?? '';
  return activity(b).localeCompare(activity(a)) || b.book.id - a.book.id;
}
