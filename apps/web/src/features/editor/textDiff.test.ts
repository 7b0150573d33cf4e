import { describe, expect, it } from 'vitest';
import { plainText, wordDiff } from './textDiff.ts';

describe('History diff', () => {
  it('reads chapter HTML as its text, a line per block', () => {
    expect(plainText('<p>One <strong>bold</strong> line.</p><h3>Two</h3>')).toBe(
      'One bold line.\nTwo',
    );
    expect(plainText('')).toBe('');
  });

  it('marks the words a restore would add and remove', () => {
    const parts = wordDiff('The new ships sailed.', 'The old ships sailed.');
    expect(parts.filter((p) => p.change === 'removed').map((p) => p.text)).toEqual(['new']);
    expect(parts.filter((p) => p.change === 'added').map((p) => p.text)).toEqual(['old']);
    expect(parts.map((p) => (p.change === 'removed' ? '' : p.text)).join('')).toBe(
      'The old ships sailed.',
    );
  });
});
