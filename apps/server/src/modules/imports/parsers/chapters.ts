import {
  CONTENT_MAX_LENGTH,
  DEFAULT_CHAPTER_TITLE,
  MAX_CHAPTERS_PER_BOOK,
  TITLE_MAX_LENGTH,
} from '@inkwell/contract';
import type { ChildNode } from 'domhandler';
import { DomUtils, parseDocument } from 'htmlparser2';
import { isBlankHtml } from '../../../html/sanitize.ts';
import { ImportFileError } from './errors.ts';
import type { ParsedChapter } from './types.ts';

/** A chapter as found, before cleaning: sanitized HTML and the title its source gave, if any. */
export interface RawChapter {
  title: string | null;
  html: string;
  /** Used when neither the source nor the content names the chapter (e.g. a document's <title>). */
  fallbackTitle?: string | null;
}

interface Block {
  tag: string | null;
  text: string;
  html: string;
}

const INLINE = new Set(['strong', 'em', 's', 'u', 'a', 'code', 'br', 'b', 'i', 'span']);
const HEADING = /^h[1-6]$/;

export const normalizeSpace = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Entities were decoded when parsing; only what HTML requires is escaped again, the rest stays UTF-8. */
function outer(node: ChildNode): string {
  return DomUtils.getOuterHTML(node, { encodeEntities: 'utf8' });
}

/** The top-level blocks of sanitized HTML; runs of bare text and inline elements become paragraphs. */
function blocksOf(html: string): Block[] {
  const blocks: Block[] = [];
  let inline: ChildNode[] = [];
  const flush = () => {
    const text = normalizeSpace(inline.map((n) => DomUtils.textContent(n)).join(''));
    if (text) blocks.push({ tag: 'p', text, html: `<p>${inline.map(outer).join('').trim()}</p>` });
    inline = [];
  };
  for (const node of parseDocument(html).children) {
    if (node.type === 'text' || (node.type === 'tag' && INLINE.has(node.name))) {
      inline.push(node);
      continue;
    }
    flush();
    if (node.type === 'tag')
      blocks.push({
        tag: node.name,
        text: normalizeSpace(DomUtils.textContent(node)),
        html: outer(node),
      });
  }
  flush();
  return blocks;
}

const ROMAN = '(?=[mdclxvi])m{0,4}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})';
const UNITS = 'one|two|three|four|five|six|seven|eight|nine';
const NUMBER_WORDS = `(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ](?:${UNITS}))?|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|${UNITS}|(?:one )?hundred`;
/** "Chapter 12", "CHAPTER XII", "Chapter Twelve", "Prologue", "Epilogue": what opens a chapter line. */
const CHAPTER_OPENING = new RegExp(
  `^(?:(?:chapter|chap\\.)\\s+(?:\\d{1,4}|${ROMAN}|${NUMBER_WORDS})|prologue|epilogue)(?![\\p{L}\\p{N}])`,
  'iu',
);

/**
 * A line that opens a chapter: the opening alone, or followed by a title after a separator
 * ("Chapter 12: The Return", "CHAPTER XII. THE RETURN") or in title case ("Chapter 12 The
 * Return"). A sentence such as "Chapter 1 was long." is prose, not a chapter line.
 */
export function isChapterLine(text: string): boolean {
  const line = normalizeSpace(text);
  if (line.length === 0 || line.length > 120) return false;
  const opening = CHAPTER_OPENING.exec(line);
  if (!opening) return false;
  const rest = line.slice(opening[0].length);
  return rest === '' || /^\s*[.:\-–—]/u.test(rest) || /^\s+[\p{Lu}\p{N}"“'‘([]/u.test(rest);
}

/**
 * Splits one document into chapters: at every Heading 1 and Heading 2 when there are any,
 * otherwise at paragraphs that are chapter lines ("Chapter 12"), otherwise not at all.
 * Sections holding nothing but their heading (a part title, the book's own title) are not
 * chapters; a leading lone Heading 1 is taken as the document's title.
 */
export function splitIntoChapters(sanitizedHtml: string): {
  docTitle: string | null;
  chapters: RawChapter[];
} {
  const blocks = blocksOf(sanitizedHtml);
  const byHeading = blocks.some((b) => b.tag === 'h1' || b.tag === 'h2');
  const startsChapter = byHeading
    ? (b: Block) => b.tag === 'h1' || b.tag === 'h2'
    : (b: Block) => (b.tag === 'p' || HEADING.test(b.tag ?? '')) && isChapterLine(b.text);
  const preamble: Block[] = [];
  const sections: Array<{ heading: Block; blocks: Block[] }> = [];
  for (const block of blocks) {
    if (startsChapter(block)) sections.push({ heading: block, blocks: [] });
    else (sections.at(-1)?.blocks ?? preamble).push(block);
  }
  const join = (list: Block[]) => list.map((b) => b.html).join('');
  const preambleHtml = join(preamble);
  const chapters: RawChapter[] = isBlankHtml(preambleHtml)
    ? []
    : [{ title: null, html: preambleHtml }];
  let docTitle: string | null = null;
  sections.forEach((section, index) => {
    const html = join(section.blocks);
    if (!isBlankHtml(html)) chapters.push({ title: section.heading.text, html });
    else if (index === 0 && chapters.length === 0 && section.heading.tag === 'h1')
      docTitle = section.heading.text;
  });
  return { docTitle, chapters };
}

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * The chapter's blocks without the heading it opens with when that heading only repeats the
 * chapter's title (the reader shows the title already): headings whose words all appear in the
 * title, and right after them a subtitle line the title ends with ("I" + "The Eve of the War"
 * for "I: The Eve of the War"). Always answers the blocks re-joined, so output is uniform.
 */
export function stripLeadingTitle(html: string, title: string): string {
  const titleWords = words(title);
  const inTitle = new Set(titleWords);
  const blocks = blocksOf(html);
  let skip = 0;
  for (const block of blocks) {
    const blockWords = words(block.text);
    if (blockWords.length === 0) break;
    const isHeading = HEADING.test(block.tag ?? '') && blockWords.every((w) => inTitle.has(w));
    const endsTitle =
      block.tag === 'p' &&
      skip > 0 &&
      blockWords.length >= 2 &&
      titleWords.slice(-blockWords.length).join(' ') === blockWords.join(' ');
    if (!isHeading && !endsTitle) break;
    skip++;
  }
  return blocks
    .slice(skip)
    .map((b) => b.html)
    .join('');
}

function firstHeading(html: string): string | null {
  const heading = blocksOf(html)
    .slice(0, 3)
    .find((b) => HEADING.test(b.tag ?? '') && b.text);
  return heading?.text ?? null;
}

function clampTitle(title: string): string {
  const clean = normalizeSpace(title);
  return clean.length <= TITLE_MAX_LENGTH
    ? clean
    : `${clean.slice(0, TITLE_MAX_LENGTH - 1).trimEnd()}…`;
}

/** Cuts content longer than the editor accepts into parts, at block boundaries. */
function splitOversized(title: string, html: string): ParsedChapter[] {
  if (html.length <= CONTENT_MAX_LENGTH) return [{ title, html }];
  const parts: string[] = [''];
  for (const block of blocksOf(html)) {
    if (block.html.length > CONTENT_MAX_LENGTH) {
      throw new ImportFileError(
        `A single paragraph of "${title}" is longer than ${CONTENT_MAX_LENGTH} characters`,
      );
    }
    if (parts.at(-1)!.length + block.html.length > CONTENT_MAX_LENGTH) parts.push('');
    parts[parts.length - 1] += block.html;
  }
  return parts.map((part, i) => ({ title: clampTitle(`${title} (part ${i + 1})`), html: part }));
}

/**
 * The chapters to import: each titled (its own title, else its first heading, else the
 * fallback), without a heading that repeats the title, without the blank ones, within the
 * editor's size limit. Fails when nothing is left or the book would be too long.
 */
export function finishChapters(raw: readonly RawChapter[], bookTitle: string): ParsedChapter[] {
  const chapters: ParsedChapter[] = [];
  for (const chapter of raw) {
    const title =
      normalizeSpace(chapter.title ?? '') ||
      firstHeading(chapter.html) ||
      normalizeSpace(chapter.fallbackTitle ?? '');
    const html = stripLeadingTitle(chapter.html, title);
    if (isBlankHtml(html)) continue;
    const named = clampTitle(title || (raw.length === 1 ? bookTitle : DEFAULT_CHAPTER_TITLE));
    chapters.push(...splitOversized(named, html));
  }
  if (chapters.length === 0) throw new ImportFileError('No chapter text was found in the file');
  if (chapters.length > MAX_CHAPTERS_PER_BOOK) {
    throw new ImportFileError(
      `The file holds ${chapters.length} chapters; a book holds at most ${MAX_CHAPTERS_PER_BOOK}`,
    );
  }
  return chapters;
}

export { clampTitle };
