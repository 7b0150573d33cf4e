import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  GRAM_JOINER as J,
  gramsOf,
  phraseGrams,
  phraseWords,
  registerPhraseGrams,
} from '../../src/modules/search/phrase-grams.ts';
import {
  chapterMatch,
  documentMatch,
  parseSearchQuery,
} from '../../src/modules/search/search-query.ts';

describe('phrase words and pairs', () => {
  it('splits on anything but letters, digits and marks, keeping the order', () => {
    expect(phraseWords('“Well,” said Mr. Pickwick — 2nd time!')).toEqual([
      'Well',
      'said',
      'Mr',
      'Pickwick',
      '2nd',
      'time',
    ]);
  });

  it('makes a letter and its accent one word however they were typed', () => {
    expect(phraseWords('cafe\u0301 noir')).toEqual(phraseWords('caf\u00e9 noir'));
  });

  it('cuts very long words alike on both sides', () => {
    const [word] = phraseWords('x'.repeat(100));
    expect(word).toHaveLength(40);
  });

  it('gives one ended token per pair of consecutive words', () => {
    expect(gramsOf(['a', 'b', 'c'])).toEqual([`a${J}b${J}`, `b${J}c${J}`]);
    expect(gramsOf(['alone'])).toEqual([]);
    expect(phraseGrams('One, two three')).toBe(`One${J}two${J} two${J}three${J}`);
    expect(phraseGrams(null)).toBe('');
  });
});

describe('the query a reader types', () => {
  it('separates quoted phrases from loose words; a quoted single word is a word', () => {
    const query = parseSearchQuery('harbour "upon his knees" "alone" lantern');
    expect(query.phrases).toEqual([
      { terms: ['upon', 'his', 'knees'], words: ['upon', 'his', 'knees'] },
    ]);
    expect(query.loose).toEqual(['alone', 'harbour', 'lantern']);
  });

  it('reads an unbalanced quote and operators as plain words', () => {
    expect(parseSearchQuery('"unbalanced AND (phrase*')).toEqual({
      loose: ['unbalanced', 'AND', 'phrase'],
      phrases: [],
    });
  });

  it('builds FTS5 queries from quoted word characters only', () => {
    const query = parseSearchQuery('x "a b: c" NEAR(');
    expect(documentMatch(query)).toBe('"a b c" AND "x" AND "NEAR"');
    expect(chapterMatch(query)).toBe(
      `phrase_grams : "a${J}b${J} b${J}c${J}" AND content_text : "x" AND content_text : "NEAR"`,
    );
    expect(chapterMatch(parseSearchQuery('!!! ""'))).toBeNull();
  });
});

describe('the pairs column of the chapter index (SQLite)', () => {
  // The same table shape and tokenizer as migration 0006.
  const db = new SQLite(':memory:');
  registerPhraseGrams(db);
  db.exec(`create virtual table chapter_fts using fts5(content_text, phrase_grams,
    content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2')`);
  const index = (id: number, text: string) =>
    db
      .prepare(
        'insert into chapter_fts(rowid, content_text, phrase_grams) values (?, ?, inkwell_phrase_grams(?))',
      )
      .run(id, text, text);
  const find = (q: string) => {
    const match = chapterMatch(parseSearchQuery(q));
    return match
      ? db
          .prepare('select rowid from chapter_fts where chapter_fts match ? order by rowid')
          .pluck()
          .all(match)
      : [];
  };
  index(1, 'The ponies were running; the Café stayed OPEN.');
  index(2, 'Running ponies were the fastest.');

  it('matches a phrase exactly as written, without stemming its words', () => {
    expect(find('"ponies were running"')).toEqual([1]);
    expect(find('"pony were running"')).toEqual([]);
    expect(find('"ponies were"')).toEqual([1, 2]);
  });

  it('folds case and diacritics as the text column does', () => {
    expect(find('"cafe stayed open"')).toEqual([1]);
    expect(find('"CAFÉ STAYED"')).toEqual([1]);
  });

  it('still stems loose words', () => {
    expect(find('pony run')).toEqual([1, 2]);
  });
});
