/**
 * Word pairs ("grams") for phrase search on SQLite
 * (docs/decisions/0015-phrase-search-by-word-pairs.md).
 *
 * A phrase of common words ("father said the") is held by nearly every chapter word by word, so
 * checking word positions chapter after chapter costs time in proportion to the library. Each
 * chapter is therefore also indexed as the sequence of its consecutive word pairs, one token per
 * pair: a phrase of n words is then the n - 1 consecutive pairs it is made of, a short and
 * selective list in the index whatever the words. Both the chapter text (when the search indexer
 * writes it) and the phrase typed by a reader go through `phraseGrams`, so the two can never
 * disagree; the FTS5 tokenizer then folds case and diacritics of both alike.
 */

/**
 * Joins a pair into one token and ends it. A private-use character is a token character for
 * FTS5's unicode61 tokenizer (so the pair stays one token) and ends no English suffix (so the
 * porter stemmer, which only strips suffixes, leaves the pair exactly as written).
 */
export const GRAM_JOINER = '\uE000';

/** Words as the grams see them: letters, digits and their combining marks. */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/** A longer "word" is cut here on both sides alike; it keeps tokens to a sane length. */
const MAX_WORD_LENGTH = 40;

/** The name under which `registerPhraseGrams` makes `phraseGrams` callable from SQL. */
const PHRASE_GRAMS_FUNCTION = 'inkwell_phrase_grams';

/** The words of a text, in order, as phrase search compares them. */
export function phraseWords(text: string): string[] {
  // NFC: a letter and its accent typed as one character or as two must make the same word.
  const normalized = text.normalize('NFC');
  const words: string[] = [];
  for (const match of normalized.matchAll(WORD)) {
    const word = match[0];
    words.push(word.length > MAX_WORD_LENGTH ? word.slice(0, MAX_WORD_LENGTH) : word);
  }
  return words;
}

/** One token per pair of consecutive words: `a b c` gives `a·b·` and `b·c·`. */
export function gramsOf(words: readonly string[]): string[] {
  const grams: string[] = [];
  for (let i = 1; i < words.length; i++)
    grams.push(words[i - 1] + GRAM_JOINER + words[i] + GRAM_JOINER);
  return grams;
}

/** The text the chapter index stores in its phrase column: the pairs, separated by spaces. */
export function phraseGrams(text: unknown): string {
  return typeof text === 'string' ? gramsOf(phraseWords(text)).join(' ') : '';
}

/** The part of better-sqlite3's Database that registering a function needs. */
interface FunctionRegistry {
  function(
    name: string,
    options: { deterministic: boolean; varargs?: boolean },
    implementation: (text: unknown) => string,
  ): unknown;
}

/**
 * Makes `inkwell_phrase_grams(text)` available on a SQLite connection, for loaders that fill the
 * chapter index in one SQL statement (the benchmark's dataset generator) rather than through the
 * search indexer. The server itself never needs it.
 */
export function registerPhraseGrams(database: FunctionRegistry): void {
  database.function(PHRASE_GRAMS_FUNCTION, { deterministic: true }, phraseGrams);
}
