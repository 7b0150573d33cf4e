import type { ImportFormat } from '@inkwell/contract';
import type { ZipLimits } from './zip.ts';

export interface ParsedChapter {
  title: string;
  /** Sanitized HTML (sanitizeContent), never blank. */
  html: string;
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

export interface ParseOptions {
  filename: string;
  /** Keep cover pages, title pages, copyright, tables of contents, dedications and the like. */
  keepFrontMatter: boolean;
  zipLimits?: ZipLimits;
}

/** Reports how far parsing got: a fraction from 0 to 1 and what is being done. */
export type Progress = (fraction: number, message: string) => void;
