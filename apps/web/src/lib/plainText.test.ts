import { describe, expect, it } from 'vitest';
import { paragraphsToText, textToParagraphs } from './plainText.ts';

describe('plain text and paragraphs', () => {
  it('makes paragraphs of blank-line-separated text, escaping what was typed', () => {
    expect(textToParagraphs('Thanks, all!\n\nBack <soon> & more\nsigned, me\n\n\n')).toBe(
      '<p>Thanks, all!</p><p>Back &lt;soon&gt; &amp; more<br>signed, me</p>',
    );
    expect(textToParagraphs('  \n ')).toBe('');
  });

  it('reads the text back for editing', () => {
    const text = 'One\n\nTwo & <three>\nfour';
    expect(paragraphsToText(textToParagraphs(text))).toBe(text);
    expect(paragraphsToText('')).toBe('');
  });
});
