import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  countWords,
  htmlToText,
  isBlankHtml,
  sanitizeContent,
  textOfSanitized,
} from '../../src/html/sanitize.ts';
import { NAUGHTY, generatedMarkup, referenceWordCount } from './html-samples.ts';

// The fast paths of the autosave must answer exactly what the straightforward definitions do.

const SAMPLES = [
  ...NAUGHTY,
  ...generatedMarkup(2_000, 11),
  '<p>Tom &amp; Jerry</p><p>&lt;tag&gt; "quoted" it’s well-known</p>',
  '<h1>Title</h1><ul><li>one</li><li>two&nbsp;three</li></ul><hr><pre>  code\n\n  block</pre>',
  '<p>a &amp;lt; b</p><p></p><p> <br> </p><blockquote>q</blockquote>',
  '<p>x<a href="https://e.test/?a=1&b=2>3">link</a>y</p>',
  '<p>Emoji 📚 and 𝔉𝔯𝔞𝔨𝔱𝔲𝔯 letters, 𝟙𝟚 digits</p>',
  "<p>-dash- 'quote' don't ’tis rock-’n’-roll -- 9-5 o'clock</p>",
  '<script>alert(1)</script><p>after</p><style>p{}</style>',
  '<p>tab\there    spaces</p>\n\n<p>next</p>',
];

describe('fast paths of the sanitizer', () => {
  it('textOfSanitized equals htmlToText on sanitizer output', () => {
    for (const sample of SAMPLES) {
      const sanitized = sanitizeContent(sample);
      expect(textOfSanitized(sanitized), JSON.stringify(sample)).toBe(htmlToText(sanitized));
    }
  });

  it('countWords equals counting the word expression', () => {
    for (const sample of SAMPLES) {
      for (const text of [sample, htmlToText(sanitizeContent(sample))]) {
        expect(countWords(text), JSON.stringify(text)).toBe(referenceWordCount(text));
      }
    }
  });

  it('countWords equals the word expression on any mix of letters, joiners, digits and spaces', () => {
    // The pieces WORD tells apart: letters (accented, CJK), digits, each joiner, separators,
    // and characters beyond the BMP (surrogate pairs, counted by the expression itself).
    const piece = fc.constantFrom(
      ...['a', 'Z', 'é', '語', '7', '٣', "'", '’', '-', ' ', '\n', '\u00a0', '.', '“', '📚', '𝔉'],
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const text = pieces.join('');
        expect(countWords(text), JSON.stringify(text)).toBe(referenceWordCount(text));
      }),
      { numRuns: 3_000 },
    );
  });

  it('isBlankHtml answers the same with and without the text given', () => {
    for (const sample of [...SAMPLES, '<p></p>', '<p> <br></p>', '<hr>', '']) {
      const sanitized = sanitizeContent(sample);
      expect(isBlankHtml(sanitized, textOfSanitized(sanitized))).toBe(isBlankHtml(sanitized));
    }
  });
});
