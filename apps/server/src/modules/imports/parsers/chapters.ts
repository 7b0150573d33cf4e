import {
  CONTENT_MAX_LENGTH,
  DEFAULT_CHAPTER_TITLE,
  MAX_CHAPTERS_PER_BOOK,
  TITLE_MAX_LENGTH,
} from '@inkwell/contract';
import type { ChildNode } from 'domhandler';
import { DomUtils, parseDocument } from 'htmlparser2';
import { escapeText } from '../../../html/escape.ts';
import { countWords, isBlankHtml, textOfSanitized } from '../../../html/sanitize.ts';
import { ImportFileError } from './errors.ts';
import type { ParsedChapter } from './types.ts';

/** A chapter as found, before cleaning: sanitized HTML and the title its source gave, if any. */
export interface RawChapter {
  title: string | null;
  html: string;
  /** Used when neither the source nor the content names the chapter (e.g. a document's <title>). */
  fallbackTitle?: string | null;
  /** Front or back matter (title page, copyright, notes...) rather than story. */
  matter?: boolean;
  /**
   * Sanitized HTML that opens the chapter ahead of its text and is never taken for its title:
   * the headings of the groups (parts, books) that begin with it and have no page of their own.
   */
  lead?: string;
  /**
   * How deep the section sits among the book's groups (1 for a part, 2 for a group inside one):
   * a title page folded into the next chapter gets headings from level depth + 1.
   */
  depth?: number;
  /** The section opens a group of chapters: its page may hold a little more (an epigraph, a foreword line). */
  group?: boolean;
}

interface Block {
  tag: string | null;
  text: string;
  html: string;
}

const INLINE = new Set(['strong', 'em', 's', 'u', 'a', 'code', 'br', 'b', 'i', 'span']);
const HEADING = /^h[1-6]$/;

export const normalizeSpace = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The words of sanitized chapter HTML, as word_count counts them. */
export const wordsOf = (html: string) => countWords(textOfSanitized(html));

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
 * otherwise at paragraphs that are chapter lines ("Chapter 12"), otherwise not at all. A leading
 * lone Heading 1 is taken as the document's title; any other section holding only its heading
 * (a part title) is kept as such, for finishChapters to fold into the chapter after it.
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
    const { heading } = section;
    if (isBlankHtml(html) && index === 0 && chapters.length === 0 && heading.tag === 'h1')
      docTitle = heading.text;
    // The heading stays in the content (a chapter line as a heading): finishChapters drops it as
    // a repeat of the title, and tells a part's title page by it.
    else {
      const line = HEADING.test(heading.tag ?? '') ? heading.html : headingLine(heading.text);
      chapters.push({ title: heading.text, html: line + html });
    }
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
export function splitOversized(
  title: string,
  html: string,
): Array<Pick<ParsedChapter, 'title' | 'html' | 'words'>> {
  if (html.length <= CONTENT_MAX_LENGTH) return [{ title, html, words: wordsOf(html) }];
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
  return parts.map((part, i) => ({
    title: clampTitle(`${title} (part ${i + 1})`),
    html: part,
    words: wordsOf(part),
  }));
}

const HEADING_TAG = /<(\/?)h([1-6])>/g;

/** Moves the headings of `html` down so the highest becomes `top` (h2 under a chapter title); never up. */
function headingsFrom(html: string, top: number): string {
  const levels = [...html.matchAll(HEADING_TAG)].map((m) => Number(m[2]));
  const shift = levels.length > 0 ? top - Math.min(...levels) : 0;
  if (shift <= 0) return html;
  return html.replace(HEADING_TAG, (_, close: string, level: string) => {
    return `<${close}h${Math.min(6, Number(level) + shift)}>`;
  });
}

/** A heading line for a group or a merged chapter's title, at `level` (2 under the chapter's own title). */
export const headingLine = (text: string, level = 2) =>
  `<h${Math.min(6, Math.max(2, level))}>${escapeText(normalizeSpace(text))}</h${Math.min(6, Math.max(2, level))}>`;

/** A part-title page's words: its heading, a subtitle and an epigraph, and no more. */
const TITLE_PAGE_WORDS = 150;
/** A group's own page may introduce it at a little more length before its first chapter. */
const GROUP_PAGE_WORDS = 300;
/** A subtitle line under a heading: short, and not a sentence. */
const SUBTITLE_WORDS = 15;
const ENDS_SENTENCE = /[.!?…]["'”’)\]]*$/u;

/**
 * A page that only announces what follows (a part's title page): few words, its title as a
 * heading, then at most a subtitle line and an epigraph. `rest` is what is left once the
 * headings that repeat the title are taken away. A group's page (a part with chapters under it
 * in the table of contents) may run a little longer, hold other headings and go without one,
 * its title being in the table of contents. A section with even one sentence of prose outside a
 * quotation is a chapter, however short.
 */
function isTitlePage(whole: readonly Block[], rest: readonly Block[], group: boolean): boolean {
  const total = whole.reduce((sum, b) => sum + countWords(b.text), 0);
  if (total === 0 || total > (group ? GROUP_PAGE_WORDS : TITLE_PAGE_WORDS)) return false;
  if (!group && !whole.some((b) => HEADING.test(b.tag ?? ''))) return false;
  return rest.every(
    (b) =>
      (group && HEADING.test(b.tag ?? '')) ||
      b.tag === 'blockquote' ||
      b.tag === 'hr' ||
      (b.tag === 'p' && countWords(b.text) <= SUBTITLE_WORDS && !ENDS_SENTENCE.test(b.text)),
  );
}

const comparableHeading = (text: string) => words(text).join(' ');

/** The lead's headings that the chapter's opening does not already show (a part heading kept in the chapter's own file). */
function leadNotIn(lead: string, html: string): string {
  if (!lead) return '';
  const shown = new Set(
    blocksOf(html)
      .slice(0, 4)
      .filter((b) => HEADING.test(b.tag ?? ''))
      .map((b) => comparableHeading(b.text)),
  );
  if (shown.size === 0) return lead;
  return blocksOf(lead)
    .filter((b) => !(HEADING.test(b.tag ?? '') && shown.has(comparableHeading(b.text))))
    .map((b) => b.html)
    .join('');
}

interface Placed {
  title: string;
  html: string;
  matter: boolean;
}

/** A title page (or group headings) waiting for the chapter it opens. */
interface Held {
  matter: boolean;
  /** What it puts at the start of that chapter: the whole page. */
  opening: string;
  /** The chapter it is after all when nothing follows it, or null when it holds no text but its title. */
  alone: Placed | null;
}

/**
 * The chapters to import: each titled (its own title, else its first heading, else the
 * fallback), without a heading that repeats the title, without the blank ones, within the
 * editor's size limit. A part's title page (isTitlePage) is not a chapter: its page, heading,
 * subtitle and epigraph included, opens the chapter after it, as do the lead headings of
 * groups. Matter before the first story chapter is front matter, after it back matter. Fails
 * when nothing is left or the book would be too long.
 */
export function finishChapters(raw: readonly RawChapter[], bookTitle: string): ParsedChapter[] {
  const placed: Placed[] = [];
  let held: Held[] = [];
  // Nothing follows in the same part of the book: what looked like title pages are chapters.
  const release = () => {
    for (const page of held) if (page.alone) placed.push(page.alone);
    held = [];
  };
  const hold = (page: Held) => {
    if (held.length > 0 && held[0]!.matter !== page.matter) release();
    held.push(page);
  };
  for (const chapter of raw) {
    const matter = chapter.matter === true;
    const lead = chapter.lead ?? '';
    const title =
      normalizeSpace(chapter.title ?? '') ||
      firstHeading(chapter.html) ||
      normalizeSpace(chapter.fallbackTitle ?? '');
    const named = clampTitle(title || (raw.length === 1 ? bookTitle : DEFAULT_CHAPTER_TITLE));
    const whole = blocksOf(chapter.html);
    const body = stripLeadingTitle(chapter.html, title);
    const rest = blocksOf(body);
    if (isBlankHtml(body)) {
      // Nothing but its title: a heading for the chapter after it, if anything.
      const page = headingsFrom(whole.map((b) => b.html).join(''), 1 + (chapter.depth ?? 1));
      if (!isBlankHtml(lead + page) && !matter) hold({ matter, opening: lead + page, alone: null });
      continue;
    }
    // Only the story has part pages; a title page of the book itself is matter like any other.
    if (!matter && isTitlePage(whole, rest, chapter.group === true)) {
      // The page as it is, its title heading included; a page showing no title gets it as a heading.
      const top = 1 + (chapter.depth ?? 1);
      const page = headingsFrom(whole.map((b) => b.html).join(''), top);
      const showsTitle = rest.length < whole.length || !title;
      hold({
        matter,
        opening: lead + (showsTitle ? '' : headingLine(title, top)) + page,
        alone: { title: named, html: lead + body, matter },
      });
      continue;
    }
    let opening = leadNotIn(lead, body);
    if (held.length > 0 && held[0]!.matter === matter) {
      opening = leadNotIn(held.map((h) => h.opening).join(''), body) + opening;
      held = [];
    } else release();
    placed.push({ title: named, html: opening + body, matter });
  }
  release();

  const firstStory = placed.findIndex((c) => !c.matter);
  const chapters = placed.flatMap((c, i) =>
    splitOversized(c.title, c.html).map((part) => ({
      ...part,
      kind: !c.matter
        ? ('body' as const)
        : firstStory < 0 || i < firstStory
          ? ('front' as const)
          : ('back' as const),
    })),
  );
  if (chapters.length === 0) throw new ImportFileError('No chapter text was found in the file');
  if (chapters.length > MAX_CHAPTERS_PER_BOOK) {
    throw new ImportFileError(
      `The file holds ${chapters.length} chapters; a book holds at most ${MAX_CHAPTERS_PER_BOOK}`,
    );
  }
  return chapters;
}

export { clampTitle };
