import { describe, expect, it } from 'vitest';
import { isStorableText } from '../../src/lib/storable-text.ts';

describe('isStorableText', () => {
  it('takes plain text, emoji (surrogate pairs) and the empty string', () => {
    for (const text of ['', 'Chapter one', 'naïve café', 'A dragon 🐉 and 👩🏽‍💻', '\ud83d\udc09'])
      expect(isStorableText(text), JSON.stringify(text)).toBe(true);
  });

  it('refuses U+0000 anywhere', () => {
    for (const text of ['\u0000', 'a\u0000', '\u0000b', 'long text\u0000 with a NUL'])
      expect(isStorableText(text), JSON.stringify(text)).toBe(false);
  });

  it('refuses a lone surrogate, high or low, at either end or inside', () => {
    for (const text of ['\ud800', 'a\ud83d', '\udc09b', 'x\udc09\ud83dy', '🐉\ud83d', '\udc09🐉'])
      expect(isStorableText(text), JSON.stringify(text)).toBe(false);
  });
});
