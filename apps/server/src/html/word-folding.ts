import { escapeRegExp } from '../lib/escape-regexp.ts';

/**
 * How a search snippet compares words (issue 21): case and accents do not count, and neither do
 * endings, as the search engine's stemmer has them.
 */

/** Case and accents do not count. */
export const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * Text that folding may change: anything beyond ASCII but spaces and punctuation (curly quotes,
 * dashes, ellipses, in most blocks of prose, need no fold): the UTF-16 code units outside ASCII,
 * U+00A0 and U+2000–U+206F. Code units on purpose, without the `u` flag: a character beyond the
 * BMP is found by its surrogates all the same, and V8 scans a plain class many times faster (with
 * `u` and \p{ASCII} this test was a sixth of a rare word's search, on whole chapters).
 */
export const FOLDABLE = /[\u0080-\u009f\u00a1-\u1fff\u2070-\uffff]/;

/** A word as words are compared: case and accents do not count. */
export const foldWord = (word: string) => (FOLDABLE.test(word) ? fold(word) : word.toLowerCase());

/**
 * How the search engine's index reduces a lower-cased word to its stem ("houses", "housing":
 * "hous"), answered folded (`foldWord`), or '' for a word the engine leaves out of its index (a
 * stop word): what a snippet marks is what the engine matched. Each engine has its own
 * (modules/search/stemmers.ts).
 */
export type Stemmer = (lowerCased: string) => string;

/**
 * What every word with this stem begins with, folded: the stem but the letters a stemmer may have
 * written in place of the word's own ("happy": "happi", "hoping": "hope", "probability":
 * "probabl"), and for a stem in "ie" its "y" form too ("dying": "die").
 */
export function stemPrefixes(stem: string): string[] {
  const prefix = stem.replace(/bl$/, 'b').replace(/[eiy]$/, '');
  const prefixes = [prefix.length > 0 ? prefix : stem];
  if (stem.length > 2 && stem.endsWith('ie')) prefixes.push(`${stem.slice(0, -2)}y`);
  return prefixes;
}

interface FoldTable {
  /** The characters beyond ASCII that fold to each single character ("é", "É", "ê"... for "e"). */
  variants: Map<string, string>;
  /** Characters that fold to more or less than one: a ligature, "½", a lone accent, half of a surrogate pair. */
  uneven: RegExp;
}

let table: FoldTable | undefined;

/**
 * Made once, on the first search that needs it, by folding the BMP's characters (about 20 ms).
 * Skipped: the CJK ideographs, which fold to themselves, and the Hangul syllables, each of
 * which folds to its two or three letters.
 */
function foldTable(): FoldTable {
  if (table) return table;
  const variants = new Map<string, string>();
  const uneven: Array<[number, number]> = [
    [0xac00, 0xd7a3],
    [0xd800, 0xdfff],
  ];
  for (let code = 0x80; code <= 0xffff; code++) {
    if (code === 0x3400) code = 0xa000;
    if (code === 0xac00) code = 0xe000;
    const character = String.fromCharCode(code);
    if (!FOLDABLE.test(character)) continue;
    const base = fold(character);
    if (base === character) continue;
    if (base.length === 1) variants.set(base, (variants.get(base) ?? '') + character);
    else if (uneven.at(-1)![1] === code - 1) uneven.at(-1)![1] = code;
    else uneven.push([code, code]);
  }
  const hex = (code: number) => `\\u${code.toString(16).padStart(4, '0')}`;
  const ranges = uneven.map(([from, to]) => (from === to ? hex(from) : `${hex(from)}-${hex(to)}`));
  table = { variants, uneven: new RegExp(`[${ranges.join('')}]`) };
  return table;
}

/**
 * A case-insensitive pattern that finds any of `stems` (folded stem prefixes, `stemPrefixes`) as
 * written in `html`, accents and inline tags and all: "cafe" finds "Café" and "<em>C</em>afe".
 * Scanning a chapter with it costs a fraction of lower-casing or folding it first. What it finds
 * may be no word of the text (inside an attribute, across blocks): the caller checks the block's
 * words. Null when `html` holds a character that folds to more or less than one (a ligature, a
 * lone accent, an emoji's half): the caller folds the text itself.
 */
export function stemsFinder(html: string, stems: readonly string[]): RegExp | null {
  // Without a character beyond ASCII but spaces and punctuation, no accent can be there to fold.
  const accents = FOLDABLE.test(html) ? foldTable() : null;
  if (accents?.uneven.test(html)) return null;
  return new RegExp(stemAlternatives(stems, accents).join('|'), 'gi');
}

/**
 * `stemsFinder` as it is for text without accents, which also stops at the first character
 * folding may change: group 1 is a stem's match, found before any such character (the plain
 * pattern finds every place a fold could before that one), and a match without it is that
 * character. Most chapters hold none before their first match, if any at all: scanning with
 * this first spares testing the whole chapter for one before the search, as `stemsFinder` must.
 */
export function plainStemsFinder(stems: readonly string[]): RegExp {
  return new RegExp(`(${stemAlternatives(stems, null).join('|')})|${FOLDABLE.source}`, 'gi');
}

/** Each stem as a pattern, each letter with its accented forms when `accents` has them. */
function stemAlternatives(stems: readonly string[], accents: FoldTable | null): string[] {
  return stems.map((stem) =>
    [...stem]
      .map((character) => {
        const others = accents?.variants.get(character);
        return others ? `[${character}${others}]` : escapeRegExp(character);
      })
      // A word may be split by inline markup ("<strong>T</strong>he").
      .join('(?:<[^>]*>)*'),
  );
}
