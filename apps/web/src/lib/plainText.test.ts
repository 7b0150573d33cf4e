import { describe, expect, it } from 'vitest';
import { overLimit, paragraphsToText, textToParagraphs } from './plainText.ts';

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

  it('measures a limit on the HTML sent, as the server does, not on the text typed', () => {
    // 5 characters typed; sent as <p>a&amp;b<br>c</p> (19).
    expect(overLimit('a&b\nc', 19)).toBe(0);
    expect(overLimit('a&b\nc', 18)).toBe(1);
    expect(overLimit('', 0)).toBe(0);
  });
});
