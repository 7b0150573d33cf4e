import { Parser } from 'htmlparser2';
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

/** The plain text of each top-level block of sanitized HTML, in order. */
export function blockTexts(html: string): string[] {
  const blocks: string[] = [];
  let depth = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (depth === 0) blocks.push('');
        depth++;
        // A line break inside a block separates words.
        if (name === 'br' && blocks.length > 0) blocks[blocks.length - 1] += ' ';
      },
      onclosetag(name) {
        depth--;
        // The end of an inner block (a list item, a quote's paragraph) ends a word too.
        if (depth > 0 && !INLINE.has(name)) blocks[blocks.length - 1] += ' ';
      },
      ontext(text) {
        if (depth > 0) blocks[blocks.length - 1] += text;
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return blocks;
}

/** How a word is compared: case, accents and common English endings do not count. */
export function wordStem(word: string): string {
  const folded = word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  for (const ending of ['ingly', 'edly', 'ings', 'ing', 'ied', 'ies', 'ed', 'es', 'ly', 's'])
    if (folded.length - ending.length >= 3 && folded.endsWith(ending))
      return folded.slice(0, -ending.length);
  return folded;
}

const WORD = /[\p{L}\p{N}\p{M}]+/gu;

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
  const blocks = blockTexts(html);
  for (let paragraph = 0; paragraph < blocks.length; paragraph++) {
    const text = blocks[paragraph]!;
    const words = [...text.matchAll(WORD)];
    const first = words.findIndex((w) => wanted.has(wordStem(w[0])));
    if (first === -1) continue;
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
    return { paragraph, snippet: snippet.replace(/\s+/g, ' ').trim() };
  }
  return null;
}
