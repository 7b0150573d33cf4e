import { describe, expect, it } from 'vitest';
import {
  countWords,
  htmlToText,
  isBlankHtml,
  sanitizeContent,
  textOfSanitized,
  textOfSanitizedStart,
} from '../../src/html/sanitize.ts';
import { XSS_VECTORS } from './html-samples.ts';

const DANGEROUS =
  /<script|<iframe|<svg|<img|<object|<embed|<style|<form|<meta|<base|<link|\son\w+\s*=|javascript:|vbscript:|data:|style=/i;

describe('sanitizeContent', () => {
  it.each(XSS_VECTORS)('neutralises %s', (vector) => {
    const clean = sanitizeContent(vector);
    expect(clean).not.toMatch(DANGEROUS);
    // Idempotent: cleaning clean HTML changes nothing, so stored content is stable.
    expect(sanitizeContent(clean)).toBe(clean);
  });

  it('keeps everything the editor can produce', () => {
    const html =
      '<h1>T</h1><h2>a</h2><h3>b</h3><h4>c</h4><h5>d</h5><h6>e</h6>' +
      '<p><strong>b</strong> <em>i</em> <s>s</s> <u>u</u> <code>c</code><br /></p>' +
      '<ul><li><p>one</p></li></ul><ol><li><p>two</p></li></ol>' +
      '<blockquote><p>q</p></blockquote><pre><code>x = 1</code></pre><hr />';
    const clean = sanitizeContent(html);
    for (const tag of 'h1 h6 strong em s u code br ul ol li blockquote pre hr'.split(' ')) {
      expect(clean).toContain(`<${tag}`);
    }
  });

  it('keeps safe links and forces rel="nofollow noopener"', () => {
    expect(
      sanitizeContent('<a href="https://example.com" target="_blank" rel="opener">x</a>'),
    ).toBe('<a href="https://example.com" rel="nofollow noopener">x</a>');
    expect(sanitizeContent('<a href="mailto:a@b.c">m</a>')).toContain('href="mailto:a@b.c"');
  });

  it('maps b and i to strong and em so italics stay italics', () => {
    expect(sanitizeContent('<b>x</b><i>y</i>')).toBe('<strong>x</strong><em>y</em>');
  });

  it('drops unknown tags but keeps their text', () => {
    expect(sanitizeContent('<div><span class="x">hello</span></div>')).toBe('hello');
  });
});

describe('htmlToText and countWords', () => {
  it('turns blocks into lines and decodes entities', () => {
    expect(htmlToText('<p>Tom &amp; Jerry</p><p>&lt;tag&gt;</p>')).toBe('Tom & Jerry\n<tag>');
  });

  it('counts words, keeping contractions and hyphenated words whole', () => {
    expect(countWords("It's a well-known fact, isn't it? 42 words… no: 8")).toBe(10);
    expect(countWords('')).toBe(0);
    expect(countWords('Ça va très bien')).toBe(4);
  });

  it('knows blank editor content', () => {
    expect(isBlankHtml('<p></p>')).toBe(true);
    expect(isBlankHtml('<p> <br></p>')).toBe(true);
    expect(isBlankHtml('<p>x</p>')).toBe(false);
  });
});

describe('textOfSanitizedStart (a feed summary from the start of a chapter)', () => {
  it('reads the text of the first characters, leaving out a tag or entity cut off at the end', () => {
    const html = sanitizeContent(
      '<p>Tom &amp; Jerry</p><p>ran <a href="https://example.test/a">home</a> at last</p>',
    );
    expect(textOfSanitizedStart(html)).toBe(textOfSanitized(html));
    for (let end = 0; end <= html.length; end++) {
      const text = textOfSanitizedStart(html.slice(0, end));
      expect(text, html.slice(0, end)).not.toMatch(/[<>]/);
      expect(textOfSanitized(html).startsWith(text.replace(/\s+$/, '')), html.slice(0, end)).toBe(
        true,
      );
    }
  });
});
