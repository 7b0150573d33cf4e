import type { ImportChapterKind, ImportFormat } from '@inkwell/contract';
import type { ZipLimits } from './zip.ts';

export interface ParsedChapter {
  title: string;
  /** Sanitized HTML (sanitizeContent), never blank. */
  html: string;
  /** Front or back matter (title page, copyright, notes...), or the story itself. */
  kind: ImportChapterKind;
  /** Words of its text, as word_count counts them. */
  words: number;
}

export interface ParsedCover {
  bytes: Uint8Array;
  mediaType: string;
}

/** What a file holds, as found by a parser; the book is made from it by the import pipeline. */
export interface ParsedBook {
  format: ImportFormat;
  title: string | null;
  author: string | null;
  /** Plain text. */
  description: string | null;
  language: string | null;
  cover: ParsedCover | null;
  chapters: ParsedChapter[];
  /** Things skipped or not understood, worth telling the importer. */
  warnings: string[];
}

/**
 * How to read a file. Which chapters become the book (matter or not, the author's choices) is
 * decided after parsing (plan.ts), so that a preview and an import read a file alike.
 */
export interface ParseOptions {
  filename: string;
  zipLimits?: ZipLimits;
}

/** Reports how far parsing got: a fraction from 0 to 1 and what is being done. */
export type Progress = (fraction: number, message: string) => void;
