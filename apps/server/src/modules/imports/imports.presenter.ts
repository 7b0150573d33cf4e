import type { ImportJob } from '@inkwell/contract';
import { fromFlag } from '../../lib/convert.ts';
import type { ImportJobRow } from './imports.repository.ts';

function warningsOf(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.map(String) : [];
  } catch {
    return [];
  }
}

export function toImportJob(row: ImportJobRow): ImportJob {
  return {
    id: row.id,
    status: row.status,
    progress: Math.min(1, Math.max(0, row.progress / 1000)),
    message: row.message,
    book_id: row.book_id,
    filename: row.filename,
    format: row.format,
    keep_front_matter: fromFlag(row.keep_front_matter),
    chapter_count: row.chapter_count,
    source_title: row.source_title,
    source_author: row.source_author,
    warnings: warningsOf(row.warnings),
    created_at: row.created_at,
    updated_at: row.updated_at,
    finished_at: row.finished_at,
  };
}
