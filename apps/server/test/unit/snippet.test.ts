import { describe, expect, it } from 'vitest';
import { countTopLevelBlocks } from '../../src/html/blocks.ts';
import { sanitizeContent } from '../../src/html/sanitize.ts';
import { blockTexts, searchSnippet } from '../../src/html/snippet.ts';

/** Issue 21: a search hit's snippet is text, escaped, whose only markup is <mark>. */
const markupIn = (snippet: string) => [...snippet.matchAll(/<\/?([a-z]+)/gi)].map((m) => m[1]);

describe('search snippets', () => {
  it('escape what the chapter text says, so only <mark> is markup', () => {
    // Sanitized HTML keeps these as text: the snippet must not turn them back into tags.
    const html = sanitizeContent(
      '<p>The &lt;script&gt;alert(1)&lt;/script&gt; dragon &lt;img src=x onerror=alert(2)&gt; &amp;amp; "quotes"</p>',
    );
    const found = searchSnippet(html, ['dragon']);
    expect(found).not.toBeNull();
    expect(markupIn(found!.snippet)).toEqual(['mark', 'mark']);
    expect(found!.snippet).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(found!.snippet).toContain('<mark>dragon</mark>');
    expect(found!.snippet).toContain('&lt;img src=x onerror=alert(2)&gt;');
    expect(found!.snippet).toContain('&amp;amp;');
    expect(found!.snippet).not.toMatch(/<(script|img)/i);
  });

  it('marks the query words, and counts blocks as paragraph indexes do', () => {
    const html =
      '<p>One.</p><blockquote><p>Two.</p><p>Three</p></blockquote><p>The Dragons flew, dragon-like.</p>';
    expect(blockTexts(html)).toHaveLength(countTopLevelBlocks(html));
    expect(searchSnippet(html, ['dragon'])).toEqual({
      paragraph: 2,
      snippet: 'The <mark>Dragons</mark> flew, <mark>dragon</mark>-like.',
    });
    expect(searchSnippet(html, ['three'])?.paragraph).toBe(1);
    expect(searchSnippet(html, ['absent'])).toBeNull();
  });

  it('keeps a short passage around the first match', () => {
    const words = Array.from({ length: 200 }, (_, i) => `w${i}`);
    words[100] = 'needle';
    const found = searchSnippet(`<p>${words.join(' ')}</p>`, ['needle'])!;
    expect(found.snippet.startsWith('… ')).toBe(true);
    expect(found.snippet.endsWith(' …')).toBe(true);
    expect(found.snippet.split(' ').length).toBeLessThan(45);
    expect(found.snippet).toContain('<mark>needle</mark>');
  });
});
