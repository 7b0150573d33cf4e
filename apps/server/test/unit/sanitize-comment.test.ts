import { describe, expect, it } from 'vitest';
import { commentTextWithoutSpoilers, sanitizeComment } from '../../src/html/sanitize-comment.ts';
import { htmlToText } from '../../src/html/sanitize.ts';

/** Issue 19: what a comment body may hold, and what notifications quote of it. */
describe('sanitizeComment', () => {
  it('keeps bold, italic, strike, links (ugc), breaks and spoilers; drops the rest but its text', () => {
    const { html, text } = sanitizeComment(
      '<p><b>bold</b> <i>it</i> <del>gone</del> <a href="https://e.example" onclick="x()">link</a>' +
        '<br><span class="spoiler big">twist</span> <span style="color:red">plain</span></p>' +
        '<h1>Heading</h1><img src=x onerror="alert(1)"><script>alert(2)</script>' +
        '<a href="javascript:alert(3)">bad</a>',
    );
    expect(html).toBe(
      '<p><strong>bold</strong> <em>it</em> <s>gone</s> ' +
        '<a href="https://e.example" rel="nofollow ugc noopener">link</a><br />' +
        '<span class="spoiler">twist</span> plain</p><p>Heading</p>' +
        '<a rel="nofollow ugc noopener">bad</a>',
    );
    expect(text).toContain('twist');
    expect(text).not.toContain('alert');
  });

  it('answers the text the parser would find in its own output (it is not parsed again)', () => {
    for (const body of [
      '<p>a &amp; b &lt;c&gt;</p><p>two<br>lines</p>',
      '<h2>Head</h2><ul><li>one</li><li>two</li></ul><span class="spoiler">s</span>',
      'x <a href="https://e.example?a=1&b=2">link</a> <script>no</script>',
    ]) {
      const { html, text } = sanitizeComment(body);
      expect(text).toBe(htmlToText(html));
    }
  });
});

describe('commentTextWithoutSpoilers', () => {
  const quoted = (body: string) => commentTextWithoutSpoilers(sanitizeComment(body).html);

  it('replaces each spoiler with the placeholder', () => {
    expect(
      quoted('<p>x <span class="spoiler">one</span> y <span class="spoiler">two</span></p>'),
    ).toBe('x [spoiler] y [spoiler]');
  });

  it('replaces a spoiler that holds another one whole, not up to the inner end tag', () => {
    const text = quoted(
      '<p>a <span class="spoiler">outer <span class="spoiler">inner</span> SECRET ENDING</span> b</p>',
    );
    expect(text).toBe('a [spoiler] b');
    expect(text).not.toContain('SECRET');
  });
});
