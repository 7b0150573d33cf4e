import { gramsOf, phraseWords } from './phrase-grams.ts';

/** A quoted phrase of two words or more; it must appear as written. */
export interface Phrase {
  /** Its words as the engines' tokenizers see them (letters, digits): tsquery, book documents. */
  terms: string[];
  /** Its words as chapter phrase search compares them (modules/search/phrase-grams.ts). */
  words: string[];
}

/** What a reader typed, split into loose words (all required, any order) and quoted phrases. */
export interface SearchTerms {
  loose: string[];
  phrases: Phrase[];
}

const MAX_TERMS = 32;
const MAX_PHRASES = 8;
const QUOTED = /"([^"]+)"/g;

/** Words of the query, as the engines' tokenizers would see them (letters and digits). */
export function queryTerms(q: string): string[] {
  return [...q.normalize('NFKC').matchAll(/[\p{L}\p{N}]+/gu)].map((m) => m[0]).slice(0, MAX_TERMS);
}

/**
 * Quoted parts are phrases; a quoted single word is just a word. Whatever else the text holds
 * (operators, brackets, an unbalanced quote) is not syntax: only letters and digits pass on.
 */
export function parseSearchQuery(q: string): SearchTerms {
  const phrases: Phrase[] = [];
  const loose: string[] = [];
  for (const [, quoted = ''] of q.matchAll(QUOTED)) {
    const phrase = { terms: queryTerms(quoted), words: phraseWords(quoted).slice(0, MAX_TERMS) };
    if (phrase.words.length > 1 && phrase.terms.length > 0 && phrases.length < MAX_PHRASES)
      phrases.push(phrase);
    else loose.push(...phrase.terms);
  }
  loose.push(...queryTerms(q.replace(QUOTED, ' ')));
  return { loose: [...new Set(loose)].slice(0, MAX_TERMS), phrases };
}

const quote = (tokens: readonly string[]) => `"${tokens.join(' ')}"`;

/**
 * FTS5 query for the book documents (title, summary, author, genres), built only from word
 * characters, each term quoted, so no input can be read as FTS5 syntax. Terms are ANDed;
 * phrases are FTS5 phrases, stemmed like the rest of the document.
 */
export function documentMatch(query: SearchTerms): string | null {
  const parts = [
    ...query.phrases.map((p) => quote(p.terms)),
    ...query.loose.map((t) => quote([t])),
  ];
  return parts.length > 0 ? parts.join(' AND ') : null;
}

/**
 * FTS5 query for the chapter index (migration 0006): loose words in its text column, each phrase
 * as the phrase of its consecutive word pairs in its pairs column. Pair tokens hold only word
 * characters and the joiner, so they too are safe inside quotes.
 */
export function chapterMatch(query: SearchTerms): string | null {
  const parts = [
    ...query.phrases.map((p) => `phrase_grams : ${quote(gramsOf(p.words))}`),
    ...query.loose.map((t) => `content_text : ${quote([t])}`),
  ];
  return parts.length > 0 ? parts.join(' AND ') : null;
}
