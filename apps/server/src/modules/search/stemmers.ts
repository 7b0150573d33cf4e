import snowball from 'snowball-stemmers';
import { stemmer as porter } from 'stemmer';
import { foldWord, type Stemmer } from '../../html/word-folding.ts';

/**
 * How each engine's index reduces a word, so that a search snippet marks the words the engine
 * matched (issue 21): a search for "precedent" matches a chapter saying "preceded" because both
 * reduce to "preced". Each takes a word lower-cased and answers its stem without accents, or ''
 * for a word the engine does not index.
 *
 * Checked against the engines themselves (test/api/search-stemmers.test.ts):
 * - PostgreSQL's `english` text search configuration drops its stop words and stems the rest with
 *   Snowball's English stemmer (Porter2), on the word as written ("résumé" stays whole: "é" is no
 *   vowel to Snowball);
 * - SQLite's FTS5 `porter unicode61 remove_diacritics 2` tokenizer takes the accents off first,
 *   then stems with Martin Porter's original algorithm.
 */
const english = snowball.newStemmer('english');

/** PostgreSQL's english stop words (tsearch_data/english.stop), which it leaves out of the index. */
const POSTGRES_STOP_WORDS = new Set(
  (
    'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself ' +
    'she her hers herself it its itself they them their theirs themselves what which who whom ' +
    'this that these those am is are was were be been being have has had having do does did ' +
    'doing a an the and but if or because as until while of at by for with about against ' +
    'between into through during before after above below to from up down in out on off over ' +
    'under again further then once here there when where why how all any both each few more most ' +
    'other some such no nor not only own same so than too very s t can will just don should now'
  ).split(' '),
);

export const postgresStem: Stemmer = remembered((word) =>
  POSTGRES_STOP_WORDS.has(word) ? '' : foldWord(english.stem(word)),
);

export const sqliteStem: Stemmer = remembered((word) => porter(foldWord(word)));

/**
 * Longer words are compared as they are: SQLite's tokenizer leaves a token of more than 64 bytes
 * unstemmed, and the Snowball port takes time in proportion to the square of a word's length
 * (a second for one of 80,000 letters), which an author's text must not be able to ask of a search.
 */
const LONGEST_STEMMED = 64;

/**
 * Words seen most recently, at most. Prose is a few tens of thousands of words, said again and
 * again, and the Snowball port takes about 10 µs a word: a snippet stems every word of a block
 * that begins as a query word does.
 */
const REMEMBERED_WORDS = 50_000;

/** `stem` for words up to LONGEST_STEMMED, with the stems of the words it met last kept. */
function remembered(stem: Stemmer): Stemmer {
  let stems = new Map<string, string>();
  return (word) => {
    if (word.length > LONGEST_STEMMED) return foldWord(word);
    let found = stems.get(word);
    if (found === undefined) {
      // Forgotten all at once when full: simpler than an LRU, and rare.
      if (stems.size >= REMEMBERED_WORDS) stems = new Map();
      stems.set(word, (found = stem(word)));
    }
    return found;
  };
}
