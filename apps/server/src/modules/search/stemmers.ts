import snowball from 'snowball-stemmers';
import { stemmer as porter } from 'stemmer';
import { foldWord, type Stemmer } from '../../html/word-folding.ts';

/**
 * How each engine's index reduces a word, so that a search snippet marks the words the engine
 * matched (issue 21): a search for "precedent" matches a chapter saying "preceded" because both
 * reduce to "preced". Each takes a word lower-cased and answers its stem without accents.
 *
 * Checked against the engines themselves (test/api/search-stemmers.test.ts):
 * - PostgreSQL's `english` text search configuration stems with Snowball's English stemmer
 *   (Porter2);
 * - SQLite's FTS5 `porter` tokenizer with Martin Porter's original algorithm.
 */
const english = snowball.newStemmer('english');

// PostgreSQL stems the word as written ("résumé" stays whole: "é" is no vowel to Snowball)...
export const postgresStem: Stemmer = remembered((word) => foldWord(english.stem(word)));

// ...SQLite's tokenizer takes the accents off first (remove_diacritics), then stems.
export const sqliteStem: Stemmer = remembered((word) => porter(foldWord(word)));

/**
 * Words seen most recently, at most. Prose is a few tens of thousands of words, said again and
 * again, and the Snowball port takes about 10 µs a word: a snippet stems every word of a block
 * that begins as a query word does.
 */
const REMEMBERED_WORDS = 50_000;

/** `stem`, with the stems of the words it met last kept (forgotten all at once when full). */
function remembered(stem: Stemmer): Stemmer {
  let stems = new Map<string, string>();
  return (word) => {
    let found = stems.get(word);
    if (found === undefined) {
      if (stems.size >= REMEMBERED_WORDS) stems = new Map();
      stems.set(word, (found = stem(word)));
    }
    return found;
  };
}
