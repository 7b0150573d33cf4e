import { Parser } from 'htmlparser2';
import { ALLOWED_TAGS, VOID_ELEMENTS } from '@inkwell/contract/html';
import { escapeText } from './escape.ts';

/**
 * "Search that shows why" (issue 21): the passage of a chapter where a search matched. The
 * chapter's sanitized HTML is read block by block, counted as `countTopLevelBlocks` (blocks.ts)
 * counts them, so `paragraph` is the index reading positions and comments use. The snippet is the
 * block's plain text, HTML-escaped, with the matched words in <mark>: the only markup it holds.
 */

/** Words either side of the first match a snippet keeps. */
const WORDS_BEFORE = 12;
const WORDS_AFTER = 24;

/** Elements inside a line of text: their end does not separate words. */
const INLINE = new Set([
  'a',
  'abbr',
  'b',
  'cite',
  'code',
  'em',
  'i',
  'mark',
  's',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'u',
]);

/**
 * Reads sanitized HTML block by block, handing each top-level block's plain text to `visit`, in
 * slices, so that a reader looking for its first match stops parsing there: `visit` answers true
 * to stop. A chapter is about 16 KB; a search page asks ten of them.
 */
function eachBlock(html: string, visit: (text: string, index: number) => boolean): void {
  let depth = 0;
  let text = '';
  let index = 0;
  let stopped = false;
  const parser = new Parser(
    {
      onopentag(name) {
        if (depth === 0) text = '';
        depth++;
        // A line break inside a block separates words.
        if (name === 'br') text += ' ';
      },
      onclosetag(name) {
        depth--;
        // The end of an inner block (a list item, a quote's paragraph) ends a word too.
        if (depth > 0 && !INLINE.has(name)) text += ' ';
        if (depth === 0 && !stopped) stopped = visit(text, index++);
      },
      ontext(chunk) {
        if (depth > 0) text += chunk;
      },
    },
    { decodeEntities: true },
  );
  for (let at = 0; at < html.length && !stopped; at += SLICE)
    parser.write(html.slice(at, at + SLICE));
  if (!stopped) parser.end();
}

const SLICE = 2048;

/** The plain text of each top-level block of sanitized HTML, in order. */
export function blockTexts(html: string): string[] {
  const blocks: string[] = [];
  eachBlock(html, (text) => {
    blocks.push(text);
    return false;
  });
  return blocks;
}

/** Case and accents do not count. */
const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
/**
 * Text that folding may change: anything beyond ASCII but spaces and punctuation (curly quotes,
 * dashes, ellipses, in most blocks of prose, need no fold): the UTF-16 code units outside ASCII,
 * U+00A0 and U+2000–U+206F. Code units on purpose, without the `u` flag: a character beyond the
 * BMP is found by its surrogates all the same, and V8 scans a plain class many times faster (with
 * `u` and \p{ASCII} this test was a sixth of a rare word's search, on whole chapters).
 */
const FOLDABLE = /[\u0080-\u009f\u00a1-\u1fff\u2070-\uffff]/;

/** How a word is compared: case, accents and common English endings do not count. */
export function wordStem(word: string): string {
  let stem = fold(word);
  for (const ending of ['ingly', 'edly', 'ings', 'ing', 'ied', 'ies', 'ed', 'es', 'ly', 's'])
    if (stem.length - ending.length >= 3 && stem.endsWith(ending)) {
      stem = stem.slice(0, -ending.length);
      break;
    }
  // "house", "houses" and "housing" are one word.
  return stem.length > 3 && stem.endsWith('e') ? stem.slice(0, -1) : stem;
}

const WORD = /[\p{L}\p{N}\p{M}]+/gu;

const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>|<!--/g;
/** Elements a parser closes by itself when one of these opens inside them (htmlparser2, browsers). */
const BLOCK_OPENERS = new Set([
  'p',
  'ul',
  'ol',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'pre',
  'hr',
]);
const CLOSED_BY_BLOCKS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/**
 * Where each top-level block of sanitized HTML starts and ends, from its tags alone (a regular
 * expression, many times faster than a parse). Sanitized chapter HTML is the allowlist's elements
 * properly nested, as the editor writes it; anything a parser would have to mend (an element it
 * closes by itself, an end tag that does not match, an unknown element) answers null, and the
 * caller parses instead, so the blocks are always the ones `countTopLevelBlocks` counts.
 */
export function blockRanges(html: string): Array<[number, number]> | null {
  const ranges: Array<[number, number]> = [];
  const open: string[] = [];
  let start = 0;
  for (const tag of html.matchAll(TAG)) {
    const name = tag[2]?.toLowerCase();
    if (name === undefined || !ALLOWED.has(name)) return null;
    const end = tag.index + tag[0].length;
    if (tag[1]) {
      if (open.pop() !== name) return null;
      if (open.length === 0) ranges.push([start, end]);
      continue;
    }
    if (BLOCK_OPENERS.has(name) && open.some((o) => CLOSED_BY_BLOCKS.has(o))) return null;
    if ((name === 'a' || name === 'li') && open.includes(name)) return null;
    if (VOID.has(name)) {
      if (open.length === 0) ranges.push([tag.index, end]);
      continue;
    }
    if (open.length === 0) start = tag.index;
    open.push(name);
  }
  return open.length === 0 ? ranges : null;
}

const ALLOWED = new Set<string>(ALLOWED_TAGS);
const VOID = new Set<string>(VOID_ELEMENTS);
const TAGS = /<[^>]*>/g;

/**
 * The first block holding one of `terms` (the query's words), as `{paragraph, snippet}`; null when
 * no block does (the engine's stemmer may match a form this one does not).
 */
export function searchSnippet(
  html: string,
  terms: readonly string[],
): { paragraph: number; snippet: string } | null {
  const wanted = new Set(terms.map(wordStem).filter((t) => t.length > 0));
  if (wanted.size === 0) return null;
  const stems = [...wanted];
  // Most blocks hold none of the words: a substring test turns them away before any splitting.
  const holdsStem = (text: string) => {
    const plain = FOLDABLE.test(text) ? fold(text) : text.toLowerCase();
    return stems.some((stem) => plain.includes(stem));
  };
  let found: { paragraph: number; snippet: string } | null = null;
  const visit = (text: string, paragraph: number) => {
    if (!holdsStem(text)) return false;
    const words = [...text.matchAll(WORD)];
    const first = words.findIndex((w) => wanted.has(wordStem(w[0])));
    if (first === -1) return false;
    const from = Math.max(0, first - WORDS_BEFORE);
    const to = Math.min(words.length - 1, first + WORDS_AFTER);
    let snippet = from > 0 ? '… ' : '';
    let at = words[from]!.index;
    for (let i = from; i <= to; i++) {
      const word = words[i]!;
      snippet += escapeText(text.slice(at, word.index));
      const escaped = escapeText(word[0]);
      snippet += wanted.has(wordStem(word[0])) ? `<mark>${escaped}</mark>` : escaped;
      at = word.index + word[0].length;
    }
    // The punctuation that ends the last word's sentence, when it is right there.
    const tail = /^[^\p{L}\p{N}\s]*/u.exec(text.slice(at))![0];
    snippet += escapeText(tail);
    if (to < words.length - 1) snippet += ' …';
    found = { paragraph, snippet: snippet.replace(/\s+/g, ' ').trim() };
    return true;
  };
  const ranges = blockRanges(html);
  if (ranges === null) {
    eachBlock(html, visit);
    return found;
  }
  const parse = (paragraph: number) =>
    eachBlock(html.slice(...ranges[paragraph]!), (text) => visit(text, paragraph));
  if (FOLDABLE.test(html)) {
    // Only a block whose text (its markup without the tags) holds a stem is parsed, on its own.
    for (let paragraph = 0; paragraph < ranges.length && found === null; paragraph++)
      if (holdsStem(html.slice(...ranges[paragraph]!).replace(TAGS, ''))) parse(paragraph);
    return found;
  }
  // Text that lower-casing leaves as long as it is: the stems are looked for in the chapter's text
  // (its markup without the tags) at once, and only the block of each place one is found is parsed.
  const { text, htmlOffset, textOffset } = withoutTags(html);
  const lower = text.toLowerCase();
  let from = 0;
  let paragraph = 0;
  while (found === null) {
    let at = -1;
    for (const stem of stems) {
      const i = lower.indexOf(stem, from);
      if (i !== -1 && (at === -1 || i < at)) at = i;
    }
    if (at === -1) break;
    const inHtml = htmlOffset(at);
    while (paragraph < ranges.length && ranges[paragraph]![1] <= inHtml) paragraph++;
    if (paragraph === ranges.length) break;
    if (ranges[paragraph]![0] > inHtml) {
      from = at + 1;
      continue;
    }
    parse(paragraph);
    // The rest of this block holds no word either: on from its end.
    from = Math.max(at + 1, textOffset(ranges[paragraph]![1]));
  }
  return found;
}

/**
 * HTML without its tags, where each character of that text is in the HTML, and the first
 * character of the text at or after a place in the HTML.
 */
function withoutTags(html: string): {
  text: string;
  htmlOffset: (i: number) => number;
  textOffset: (h: number) => number;
} {
  const textStarts: number[] = [];
  const htmlStarts: number[] = [];
  let text = '';
  let last = 0;
  for (const tag of html.matchAll(TAGS)) {
    if (tag.index > last) {
      textStarts.push(text.length);
      htmlStarts.push(last);
      text += html.slice(last, tag.index);
    }
    last = tag.index + tag[0].length;
  }
  if (last < html.length) {
    textStarts.push(text.length);
    htmlStarts.push(last);
    text += html.slice(last);
  }
  const htmlOffset = (i: number) => {
    let lo = 0;
    let hi = textStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (textStarts[mid]! <= i) lo = mid;
      else hi = mid - 1;
    }
    return htmlStarts[lo]! + (i - textStarts[lo]!);
  };
  const textOffset = (h: number) => {
    if (textStarts.length === 0 || h <= htmlStarts[0]!) return 0;
    let lo = 0;
    let hi = htmlStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (htmlStarts[mid]! <= h) lo = mid;
      else hi = mid - 1;
    }
    const next = textStarts[lo + 1] ?? text.length;
    // Inside the run of text that starts there, or in the tags after it: the next run.
    return Math.min(textStarts[lo]! + (h - htmlStarts[lo]!), next);
  };
  return { text, htmlOffset, textOffset };
}
