import type { ImportFormat, ImportJob, ImportPreview } from '@inkwell/contract';
import { textOfSanitized } from '../../html/sanitize.ts';
import { fromFlag } from '../../lib/convert.ts';
import type { ImportJobRow } from './imports.repository.ts';
import type { ParsedBook } from './parsers/index.ts';
import { bookTitleOf, includedByDefault, matterWarnings } from './plan.ts';

const OPENING_CHARS = 160;

/** The first words of a chapter's text, cut at a word. */
function openingOf(html: string): string {
  const text = textOfSanitized(html).replace(/\s+/g, ' ').trim();
  if (text.length <= OPENING_CHARS) return text;
  const cut = text.slice(0, OPENING_CHARS);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), OPENING_CHARS / 2)).trimEnd()}…`;
}

export function toImportPreview(
  parsed: ParsedBook,
  source: { filename: string; format: ImportFormat; keepFrontMatter: boolean },
): ImportPreview {
  const { keepFrontMatter } = source;
  const included = parsed.chapters.map((c) => includedByDefault(c, keepFrontMatter));
  return {
    filename: source.filename,
    format: source.format,
    keep_front_matter: keepFrontMatter,
    title: bookTitleOf(parsed, source.filename),
    source_title: parsed.title,
    source_author: parsed.author,
    chapters: parsed.chapters.map((c, index) => ({
      index,
      title: c.title,
      words: c.words,
      kind: c.kind,
      included: included[index]!,
      opening: openingOf(c.html),
    })),
    // What importing it as it stands would also say (matter left out).
    warnings: [...parsed.warnings, ...matterWarnings(included.filter((i) => !i).length)],
  };
}

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
