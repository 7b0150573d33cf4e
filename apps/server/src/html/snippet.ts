import { Parser } from 'htmlparser2';
import { ALLOWED_TAGS, VOID_ELEMENTS } from '@inkwell/contract/html';
import { escapeText } from './escape.ts';
import {
  fold,
  FOLDABLE,
  plainStemsFinder,
  foldWord,
  stemPrefixes,
  stemsFinder,
  type Stemmer,
} from './word-folding.ts';

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
 * Where each top-level block of sanitized HTML starts and ends, in order, from its tags alone (a
 * regular expression, many times faster than a parse), read only as far as the caller asks.
 * Sanitized chapter HTML is the allowlist's elements properly nested, as the editor writes it;
 * anything a parser would have to mend (an element it closes by itself, an end tag that does not
 * match, an unknown element) ends the scan with false, and the caller parses instead, so the
 * blocks are always the ones `countTopLevelBlocks` counts. A parse reads from the start, so the
 * blocks before such a place are the parse's blocks too.
 */
function* scanBlocks(html: string): Generator<[number, number], boolean> {
  const open: string[] = [];
  let start = 0;
  for (const tag of html.matchAll(TAG)) {
    const name = tag[2]?.toLowerCase();
    if (name === undefined || !ALLOWED.has(name)) return false;
    const end = tag.index + tag[0].length;
    if (tag[1]) {
      if (open.pop() !== name) return false;
      if (open.length === 0) yield [start, end];
      continue;
    }
    if (BLOCK_OPENERS.has(name) && open.some((o) => CLOSED_BY_BLOCKS.has(o))) return false;
    if ((name === 'a' || name === 'li') && open.includes(name)) return false;
    if (VOID.has(name)) {
      if (open.length === 0) yield [tag.index, end];
      continue;
    }
    if (open.length === 0) start = tag.index;
    open.push(name);
  }
  return open.length === 0;
}

/** Every top-level block's range (`scanBlocks`), or null when the HTML needs a parse. */
export function blockRanges(html: string): Array<[number, number]> | null {
  const ranges: Array<[number, number]> = [];
  const scan = scanBlocks(html);
  for (let next = scan.next(); ; next = scan.next()) {
    if (next.done) return next.value ? ranges : null;
    ranges.push(next.value);
  }
}

const ALLOWED = new Set<string>(ALLOWED_TAGS);
const VOID = new Set<string>(VOID_ELEMENTS);

/**
 * Distinct words a snippet stems at most. A chapter of prose has a few dozen that begin as a query
 * word does; a text made to have thousands (each a stem of the Snowball port, about 10 µs) gets no
 * snippet rather than a search that waits on it.
 */
const MOST_WORDS_STEMMED = 1_000;
const TOO_MANY_WORDS = Symbol('too many words');

/**
 * The first block holding one of `terms` (the query's words) as the search engine's `stem` has
 * them, as `{paragraph, snippet}`; null when no block does (or in the cases `stemPrefixes` and
 * MOST_WORDS_STEMMED say).
 */
export function searchSnippet(
  html: string,
  terms: readonly string[],
  stem: Stemmer,
): { paragraph: number; snippet: string } | null {
  try {
    return firstMatch(html, terms, stem);
  } catch (error) {
    if (error === TOO_MANY_WORDS) return null;
    throw error;
  }
}

function firstMatch(
  html: string,
  terms: readonly string[],
  stem: Stemmer,
): { paragraph: number; snippet: string } | null {
  const wanted = new Set(terms.map((term) => stem(term.toLowerCase())).filter((t) => t.length > 0));
  if (wanted.size === 0) return null;
  // What the text is scanned for: the beginning every word with a wanted stem has.
  const prefixes = [...new Set([...wanted].flatMap(stemPrefixes))];
  // Most blocks hold none of the words: a substring test turns them away before any splitting.
  const sigmaPrefixes = prefixes.map(oneSigma);
  const mayHold = (text: string) => {
    const plain = FOLDABLE.test(text) ? oneSigma(fold(text)) : text.toLowerCase();
    return sigmaPrefixes.some((prefix) => plain.includes(prefix));
  };
  // A word whose first letter is another ASCII letter than every prefix's is not stemmed (most
  // words of a block), nor one that does not begin with a prefix (a stemmer is slow by comparison).
  const initials = new Set(prefixes.map((prefix) => prefix.charCodeAt(0)));
  const stemmed = new Set<string>();
  const isWanted = (word: string) => {
    const code = word.charCodeAt(0);
    if (code < 0x80 && isAsciiLetter(code) && !initials.has(code | 0x20)) return false;
    const lower = word.toLowerCase();
    const folded = foldWord(lower);
    if (!prefixes.some((prefix) => folded.startsWith(prefix))) return false;
    if (!stemmed.has(lower)) {
      if (stemmed.size === MOST_WORDS_STEMMED) throw TOO_MANY_WORDS;
      stemmed.add(lower);
    }
    return wanted.has(stem(lower));
  };
  let found: { paragraph: number; snippet: string } | null = null;
  const visit = (text: string, paragraph: number) => {
    if (!mayHold(text)) return false;
    const words = [...text.matchAll(WORD)];
    const first = words.findIndex((w) => isWanted(w[0]));
    if (first === -1) return false;
    found = { paragraph, snippet: passage(text, words, first, isWanted) };
    return true;
  };
  const parse = (block: [number, number], paragraph: number) => {
    eachBlock(html.slice(...block), (text) => visit(text, paragraph));
    return found !== null;
  };
  const parseAll = () => {
    eachBlock(html, visit);
    return found !== null;
  };

  // The stems are looked for in the whole HTML at once, and only the block of each place one is
  // found is read, its blocks counted from the start only that far: a search page asks this of
  // ten chapters of about 16 KB, and the words are often near their start. First without
  // accents, as far as the first character folding may change (`plainStemsFinder`).
  const scan = (pattern: RegExp) => findInBlocks(html, pattern, { parse, parseAll });
  if (scan(plainStemsFinder(prefixes)) !== ACCENTED) return found;
  const pattern = stemsFinder(html, prefixes);
  if (pattern !== null) {
    scan(pattern);
    return found;
  }
  // Text the pattern cannot be trusted with: each block's text is folded and tested, and only
  // a block that may hold a word is parsed.
  const ranges = blockRanges(html);
  if (ranges === null) parseAll();
  else
    for (let paragraph = 0; paragraph < ranges.length && found === null; paragraph++)
      if (mayHold(html.slice(...ranges[paragraph]!).replace(TAGS, ''))) {
        parse(ranges[paragraph]!, paragraph);
      }
  return found;
}

const isAsciiLetter = (code: number) => (code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a;

/** `findInBlocks` met a character folding may change before any stem (`plainStemsFinder`). */
const ACCENTED = Symbol('accented');

/**
 * Runs `pattern` over `html`, handing `parse` the block (and its index) of each place it finds,
 * until `parse` answers true (the block holds a word of the query: found). With a pattern of
 * `plainStemsFinder`, a match without its group is a character folding may change, and the scan
 * stops there: ACCENTED. HTML the block scan leaves to a parse goes to `parseAll`.
 */
function findInBlocks(
  html: string,
  pattern: RegExp,
  reader: {
    parse: (block: [number, number], paragraph: number) => boolean;
    parseAll: () => boolean;
  },
): boolean | typeof ACCENTED {
  const blocks = scanBlocks(html);
  let block: [number, number] | undefined;
  let paragraph = -1;
  // The next '<' and '>' at or after the place looked at (which only moves on): a place is
  // inside a tag when a '>' comes before the next '<' (text spells both as entities).
  let nextOpen = -1;
  let nextClose = -1;
  pattern.lastIndex = 0;
  for (;;) {
    const match = pattern.exec(html);
    if (match === null) return false;
    if (match.length > 1 && match[1] === undefined) return ACCENTED;
    const at = match.index;
    if (nextOpen < at) nextOpen = indexAfter(html, '<', at);
    if (nextClose < at) nextClose = indexAfter(html, '>', at);
    if (nextClose < nextOpen) {
      // In a tag (an attribute, an element's name) rather than the text: on after it.
      pattern.lastIndex = nextClose + 1;
      continue;
    }
    while (block === undefined || block[1] <= at) {
      const next = blocks.next();
      if (next.done) {
        // Past the last block (text outside any): nothing more; or HTML the scan leaves to a
        // parse, which reads it all.
        return next.value ? false : reader.parseAll();
      }
      block = next.value;
      paragraph++;
    }
    if (block[0] <= at) {
      if (reader.parse(block, paragraph)) return true;
      pattern.lastIndex = block[1];
    }
    // Text outside any block is no paragraph: on to the next block.
    else pattern.lastIndex = block[0];
  }
}

/**
 * Greek's final sigma as its other form: lower-casing a whole block makes "Σ" final or not by
 * what follows it ("ΟΔΟΣ’ΚΑΙ"), while a word's stem is lower-cased alone.
 */
const oneSigma = (text: string) => (text.includes('ς') ? text.replaceAll('ς', 'σ') : text);

const TAGS = /<[^>]*>/g;

/** Where `character` is next in `text` from `from` on; Infinity when nowhere. */
function indexAfter(text: string, character: string, from: number): number {
  const at = text.indexOf(character, from);
  return at === -1 ? Infinity : at;
}

/** The words around the first match, escaped, the query's words in <mark>. */
function passage(
  text: string,
  words: RegExpMatchArray[],
  first: number,
  isWanted: (word: string) => boolean,
): string {
  const from = Math.max(0, first - WORDS_BEFORE);
  const to = Math.min(words.length - 1, first + WORDS_AFTER);
  let snippet = from > 0 ? '… ' : '';
  let at = words[from]!.index!;
  for (let i = from; i <= to; i++) {
    const word = words[i]!;
    snippet += escapeText(text.slice(at, word.index));
    const escaped = escapeText(word[0]);
    snippet += isWanted(word[0]) ? `<mark>${escaped}</mark>` : escaped;
    at = word.index! + word[0].length;
  }
  // The punctuation that ends the last word's sentence, when it is right there.
  const tail = /^[^\p{L}\p{N}\s]*/u.exec(text.slice(at))![0];
  snippet += escapeText(tail);
  if (to < words.length - 1) snippet += ' …';
  return snippet.replace(/\s+/g, ' ').trim();
}
