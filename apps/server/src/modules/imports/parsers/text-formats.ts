import { marked } from 'marked';
import { escapeText } from '../../../html/escape.ts';
import { sanitizeContent } from '../../../html/sanitize.ts';
import { finishChapters, isChapterLine, normalizeSpace, splitIntoChapters } from './chapters.ts';
import { scanDocument } from './scan.ts';
import type { ParsedBook, ParseOptions } from './types.ts';
import { decodeText } from './zip.ts';

const stem = (filename: string) =>
  normalizeSpace(filename.replace(/\.[^.]+$/, '').replace(/[_]+/g, ' ')) || 'Imported book';

/** The shared end of the one-document formats: sanitize, split at headings or chapter lines, finish. */
function fromHtml(
  format: ParsedBook['format'],
  html: string,
  options: ParseOptions,
  meta: { title?: string | null; author?: string | null; description?: string | null } = {},
): ParsedBook {
  const { docTitle, chapters } = splitIntoChapters(sanitizeContent(html));
  const title = meta.title || docTitle || null;
  return {
    format,
    title,
    author: meta.author || null,
    description: meta.description || null,
    language: null,
    cover: null,
    chapters: finishChapters(chapters, title ?? stem(options.filename)),
    warnings: [],
  };
}

/** A leading `---` block of `key: value` lines (YAML front matter as static site tools write it). */
function frontMatter(text: string): { meta: Map<string, string>; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(text);
  const meta = new Map<string, string>();
  if (!match) return { meta, body: text };
  for (const line of match[1]!.split(/\r?\n/)) {
    const pair = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (pair) meta.set(pair[1]!.toLowerCase(), pair[2]!.trim().replace(/^(['"])(.*)\1$/, '$2'));
  }
  return { meta, body: text.slice(match[0].length) };
}

export function parseMarkdown(bytes: Uint8Array, options: ParseOptions): ParsedBook {
  const { meta, body } = frontMatter(decodeText(bytes));
  const html = marked.parse(body, { async: false, gfm: true });
  return fromHtml('markdown', html, options, {
    title: meta.get('title'),
    author: meta.get('author'),
    description: meta.get('description') ?? meta.get('summary'),
  });
}

export function parseHtml(bytes: Uint8Array, options: ParseOptions): ParsedBook {
  const doc = scanDocument(decodeText(bytes));
  return fromHtml('html', doc.html, options, {
    title: doc.title,
    author: doc.meta.get('author'),
    description: doc.meta.get('description'),
  });
}

/**
 * Plain text: paragraphs are separated by blank lines (or, in a file without any blank line,
 * by line breaks); wrapped lines are joined. A chapter line opening a paragraph stands alone.
 */
export function parseText(bytes: Uint8Array, options: ParseOptions): ParsedBook {
  const text = decodeText(bytes).replace(/\r\n?/g, '\n');
  const blocks = /\n[ \t]*\n/.test(text) ? text.split(/\n[ \t]*\n/) : text.split('\n');
  const paragraphs: string[] = [];
  for (const block of blocks) {
    const lines = block
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    if (lines.length === 0) continue;
    if (lines.length > 1 && isChapterLine(lines[0]!)) paragraphs.push(lines.shift()!);
    paragraphs.push(lines.join(' '));
  }
  return fromHtml('text', paragraphs.map((p) => `<p>${escapeText(p)}</p>`).join('\n'), options);
}
