import type { ChildNode } from 'domhandler';
import { parseDocument } from 'htmlparser2';

// XML 1.0 forbids most control characters, even escaped; stored text may hold some. The class
// lists what XML allows, so naming control characters is the point here.
// eslint-disable-next-line no-control-regex
const INVALID_XML = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Escapes text or an attribute value for XML, dropping characters XML cannot carry. */
export function escapeXml(text: string): string {
  return text
    .replace(INVALID_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const VOID = new Set(['br', 'hr', 'img', 'wbr']);

function serialize(nodes: readonly ChildNode[]): string {
  let out = '';
  for (const node of nodes) {
    if (node.type === 'text') out += escapeXml(node.data);
    else if (node.type === 'tag') {
      const attrs = Object.entries(node.attribs)
        .filter(([name]) => /^[a-z][a-z0-9-]*$/.test(name))
        .map(([name, value]) => ` ${name}="${escapeXml(value)}"`)
        .join('');
      out += VOID.has(node.name)
        ? `<${node.name}${attrs}/>`
        : `<${node.name}${attrs}>${serialize(node.children)}</${node.name}>`;
    }
    // Comments, directives and CDATA have no place in a chapter.
  }
  return out;
}

/**
 * Sanitized chapter HTML as well-formed XHTML: the HTML parser closes what HTML leaves open,
 * entities become characters, void elements self-close and every text is XML-escaped.
 */
export function htmlToXhtml(html: string): string {
  return serialize(
    parseDocument(html, { lowerCaseTags: true, lowerCaseAttributeNames: true }).children,
  );
}
