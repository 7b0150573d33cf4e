import { ALLOWED_TAGS, CONTAINER_ELEMENTS, VOID_ELEMENTS } from '@inkwell/contract/html';
import { describe, expect, it } from 'vitest';
import { HTML_ELEMENTS } from '../../../../packages/contract/test/html-elements.ts';
import { readCanonicalContent } from '../../src/html/canonical.ts';
import { sanitizeContent, sanitizeWithParser } from '../../src/html/sanitize.ts';

// The allowlist lives in one place (@inkwell/contract/html); the sanitizer and its canonical fast
// path must each let through exactly the tags it names. The web app's side: apps/web/test.

/** The element names in HTML (text is escaped, so a '<' in it never starts one). */
const tagsIn = (html: string) =>
  [...html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9]*)/g)].map((m) => m[1]!.toLowerCase());

const isVoid = (tag: string) => (VOID_ELEMENTS as readonly string[]).includes(tag);
const isContainer = (tag: string) => (CONTAINER_ELEMENTS as readonly string[]).includes(tag);

/** The tag as the sanitizer writes it. */
const written = (tag: string) => (isVoid(tag) ? `<${tag} />` : `<${tag}>x</${tag}>`);

describe('the sanitizer keeps to the one allowlist', () => {
  it('writes no tag the list does not name, whatever it is given', () => {
    for (const tag of HTML_ELEMENTS) {
      const inputs = [
        `<${tag}>x</${tag}>`,
        `<p>a<${tag} href="https://example.com" title="t" />b</p>`,
        `<ul><li><${tag} class="c">x</${tag}></li></ul>`,
      ];
      for (const html of inputs) {
        for (const out of [sanitizeWithParser(html), sanitizeContent(html)]) {
          for (const kept of tagsIn(out)) expect(ALLOWED_TAGS, `${html} -> ${out}`).toContain(kept);
        }
      }
    }
  });

  it('keeps every tag the list names', () => {
    for (const tag of ALLOWED_TAGS) {
      expect(tagsIn(sanitizeWithParser(written(tag))), tag).toContain(tag);
    }
  });
});

describe('the canonical fast path keeps to the one allowlist', () => {
  it("recognizes the list's elements in the sanitizer's spelling, and no other element", () => {
    for (const tag of HTML_ELEMENTS) {
      const listed = isContainer(tag) || isVoid(tag);
      expect(readCanonicalContent(written(tag)) !== null, tag).toBe(listed);
      if (!listed) expect(readCanonicalContent(`<${tag} />`), tag).toBeNull();
    }
    expect(readCanonicalContent('<a rel="nofollow noopener">x</a>')).not.toBeNull();
  });
});
