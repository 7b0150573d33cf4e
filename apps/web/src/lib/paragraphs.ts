/**
 * A place in a chapter as the API stores it: the index of a top-level block of the chapter content
 * (0-based) and a character offset inside that block. The reader saves one from the scroll position,
 * a note keeps one from a text selection, and "Continue reading" scrolls back to it.
 */
export interface TextPlace {
  paragraph: number;
  offset: number;
}

/** The index of the top-level block of `container` holding `node`, or -1 when it is outside. */
export function blockIndexOf(container: Element, node: Node | null): number {
  let current: Node | null = node;
  while (current && current.parentNode !== container) current = current.parentNode;
  return current ? elementIndex(container, current) : -1;
}

// Only elements count: whitespace text between blocks must not shift the indices.
function elementIndex(container: Element, child: Node): number {
  if (child.nodeType !== Node.ELEMENT_NODE) {
    const next = nextElement(child);
    return next
      ? Array.prototype.indexOf.call(container.children, next)
      : container.children.length - 1;
  }
  return Array.prototype.indexOf.call(container.children, child);
}

function nextElement(node: Node): Element | null {
  let n = node.nextSibling;
  while (n && n.nodeType !== Node.ELEMENT_NODE) n = n.nextSibling;
  return n as Element | null;
}

/** Characters of text in `block` before the point (node, offset). */
function textOffsetIn(block: Element, node: Node, offset: number): number {
  const range = block.ownerDocument.createRange();
  range.selectNodeContents(block);
  range.setEnd(node, offset);
  return range.toString().length;
}

/** Where a selection starts inside the chapter content; null when it does not start inside it. */
export function placeOfRange(container: Element, range: Range): TextPlace | null {
  const paragraph = blockIndexOf(container, range.startContainer);
  if (paragraph < 0) return null;
  const block = container.children[paragraph];
  if (!block || !block.contains(range.startContainer)) return { paragraph, offset: 0 };
  return { paragraph, offset: textOffsetIn(block, range.startContainer, range.startOffset) };
}

/**
 * The first block still visible below `top` (px from the viewport's top): the paragraph being read.
 * The offset says roughly how far into a tall block the reader has scrolled, in characters.
 */
export function placeAtTop(container: Element, top: number): TextPlace | null {
  const blocks = container.children;
  for (let i = 0; i < blocks.length; i++) {
    const rect = blocks[i]!.getBoundingClientRect();
    if (rect.bottom > top) {
      const hidden = rect.height > 0 ? Math.min(Math.max((top - rect.top) / rect.height, 0), 1) : 0;
      const length = blocks[i]!.textContent?.length ?? 0;
      return { paragraph: i, offset: Math.floor(hidden * length) };
    }
  }
  return blocks.length ? { paragraph: blocks.length - 1, offset: 0 } : null;
}
