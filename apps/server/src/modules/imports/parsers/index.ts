import type { ImportFormat } from '@inkwell/contract';
import { parseDocx } from './docx.ts';
import { parseEpub } from './epub.ts';
import { parseHtml, parseMarkdown, parseText } from './text-formats.ts';
import type { ParsedBook, ParseOptions, Progress } from './types.ts';

export { ImportFileError } from './errors.ts';
export type { ParsedBook, ParsedChapter, ParseOptions, Progress } from './types.ts';

const BY_EXTENSION: Record<string, ImportFormat> = {
  epub: 'epub',
  docx: 'docx',
  md: 'markdown',
  markdown: 'markdown',
  mdown: 'markdown',
  mkd: 'markdown',
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  txt: 'text',
  text: 'text',
};

const ascii = (bytes: Uint8Array, from: number, to: number) =>
  Buffer.from(bytes.subarray(from, to)).toString('latin1');

/**
 * The format of an upload: the client's hint, else the file name, else the content (a zip is
 * an EPUB when it says so in its mimetype entry, a Word document when it holds word/; text is
 * HTML when it looks like it). Null for anything else, binary files above all.
 */
export function detectFormat(
  bytes: Uint8Array,
  filename: string,
  hint?: ImportFormat,
): ImportFormat | null {
  if (hint) return hint;
  const extension = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase() ?? '';
  if (BY_EXTENSION[extension]) return BY_EXTENSION[extension];
  const isZip = bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
  if (isZip) {
    const first = ascii(bytes, 30, 128);
    if (first.startsWith('mimetype') && first.includes('application/epub+zip')) return 'epub';
    if (Buffer.from(bytes).includes('word/document.xml')) return 'docx';
    return null;
  }
  const head = bytes.subarray(0, 8192);
  if (
    head.includes(0) &&
    !(head[0] === 0xff && head[1] === 0xfe) &&
    !(head[0] === 0xfe && head[1] === 0xff)
  )
    return null;
  return /^\s*(<!doctype html|<html[\s>]|<\?xml[^>]*>\s*<html)/i.test(
    ascii(bytes, 0, 512).replace(/^\ufeff|^ï»¿/, ''),
  )
    ? 'html'
    : 'text';
}

export async function parseBook(
  bytes: Uint8Array,
  format: ImportFormat,
  options: ParseOptions,
  progress: Progress,
): Promise<ParsedBook> {
  switch (format) {
    case 'epub':
      return parseEpub(bytes, options, progress);
    case 'docx':
      return parseDocx(bytes, options, progress);
    case 'markdown':
      return parseMarkdown(bytes, options);
    case 'html':
      return parseHtml(bytes, options);
    case 'text':
      return parseText(bytes, options);
  }
}
