import { ALLOWED_TAGS, TEXT_ELEMENTS } from '@inkwell/contract/html';
import { getSchema } from '@tiptap/core';
import { DOMSerializer } from '@tiptap/pm/model';
import { describe, expect, it } from 'vitest';
import { HTML_ELEMENTS } from '../../../packages/contract/test/html-elements.ts';
import { isInertHtml, sanitize } from '../src/components/SafeHtml.tsx';
import { chapterExtensions } from '../src/features/editor/extensions.ts';

// The allowlist lives in one place (@inkwell/contract/html). The web app's two users of it must
// keep to it: SafeHtml shows no tag the list does not name, and the chapter editor writes exactly
// the list's tags. (The server's sanitizer and fast path: apps/server/test/unit.)

const elementsOf = (node: Node): Element[] =>
  node instanceof Element ? [node, ...node.querySelectorAll('*')] : [];
const tagsIn = (html: string) => {
  const template = document.createElement('template');
  template.innerHTML = html;
  return [...template.content.querySelectorAll('*')].map((e) => e.tagName.toLowerCase());
};

/** Every tag the editor's schema writes: each node type (each heading level) and each mark. */
function editorTags(): Set<string> {
  const schema = getSchema(chapterExtensions(() => undefined));
  const serializer = DOMSerializer.fromSchema(schema);
  const tags = new Set<string>();
  const collect = (node: Node) =>
    elementsOf(node).forEach((e) => tags.add(e.tagName.toLowerCase()));
  for (const type of Object.values(schema.nodes)) {
    if (!type.spec.toDOM) continue; // the document and text
    const variants = (type.spec.parseDOM ?? []).flatMap((rule) => (rule.attrs ? [rule.attrs] : []));
    for (const attrs of variants.length > 0 ? variants : [null]) {
      collect(serializer.serializeNode(type.create(attrs)));
    }
  }
  for (const type of Object.values(schema.marks)) {
    const toDOM = type.spec.toDOM;
    if (toDOM) collect(DOMSerializer.renderSpec(document, toDOM(type.create(), true)).dom);
  }
  return tags;
}

describe('the chapter editor writes exactly the tags of the allowlist', () => {
  it('writes no tag the list does not name, and every tag it names', () => {
    expect([...editorTags()].sort()).toEqual([...ALLOWED_TAGS].sort());
  });
});

describe('SafeHtml keeps to the allowlist', () => {
  it('shows no tag the list does not name, whatever it is given', () => {
    for (const tag of HTML_ELEMENTS) {
      for (const html of [`<${tag}>x</${tag}>`, `<p>a<${tag} href="https://example.com">x</p>`]) {
        for (const kept of tagsIn(sanitize(html))) expect(ALLOWED_TAGS, html).toContain(kept);
      }
    }
  });

  it("shows the list's tags, and takes only its text tags (no link) as inert", () => {
    for (const tag of HTML_ELEMENTS) {
      const listed = ALLOWED_TAGS.includes(tag);
      if (listed) expect(tagsIn(sanitize(`<ul><${tag}>x</${tag}></ul>`)), tag).toContain(tag);
      expect(isInertHtml(`<${tag}>`), tag).toBe(TEXT_ELEMENTS.includes(tag));
    }
  });
});
