/**
 * Pasted HTML from Word, Google Docs and web pages, reduced to what a chapter keeps: paragraphs,
 * line breaks, bold, italics, strike-through, headings 1–6 and lists. Everything else (fonts,
 * colours, classes, links, images, tables, comments) is dropped, its text kept where it has any.
 *
 * Office suites mark emphasis with styles rather than tags: Google Docs wraps the whole clipboard in
 * <b style="font-weight:normal"> and writes italics as <span style="font-style:italic">; Word
 * writes lists as paragraphs styled `mso-list` with a hidden bullet. So formatting is decided from
 * the tag *and* the inline style, the style winning. The server's sanitizer stays the final word.
 */

type Mark = 'strong' | 'em' | 's';
interface Marks {
  strong: boolean;
  em: boolean;
  s: boolean;
}

const NO_MARKS: Marks = { strong: false, em: false, s: false };
const MARK_ORDER: readonly Mark[] = ['strong', 'em', 's'];

/** Elements whose content is never text of the chapter. */
const DROPPED = new Set([
  'SCRIPT',
  'STYLE',
  'META',
  'LINK',
  'TITLE',
  'HEAD',
  'TEMPLATE',
  'IFRAME',
  'OBJECT',
  'EMBED',
  'NOSCRIPT',
  'SVG',
  'MATH',
  'IMG',
  'PICTURE',
  'VIDEO',
  'AUDIO',
  'CANVAS',
  'BUTTON',
  'INPUT',
  'SELECT',
  'TEXTAREA',
  'HR',
]);

/** Elements that start a new paragraph (their inline content becomes one). */
const BLOCKS = new Set([
  'P',
  'DIV',
  'BLOCKQUOTE',
  'PRE',
  'SECTION',
  'ARTICLE',
  'HEADER',
  'FOOTER',
  'ASIDE',
  'MAIN',
  'NAV',
  'FIGURE',
  'FIGCAPTION',
  'ADDRESS',
  'TABLE',
  'TBODY',
  'THEAD',
  'TFOOT',
  'TR',
  'TD',
  'TH',
  'DL',
  'DT',
  'DD',
  'BODY',
  'CENTER',
]);

const HEADINGS = new Set(['H1', 'H2', 'H3', 'H4', 'H5', 'H6']);
const LISTS = new Set(['UL', 'OL']);

/** The declarations of an inline style attribute, lower-cased, without spaces. */
function styleOf(el: Element): Map<string, string> {
  const props = new Map<string, string>();
  for (const decl of (el.getAttribute('style') ?? '').split(';')) {
    const colon = decl.indexOf(':');
    if (colon < 0) continue;
    const name = decl.slice(0, colon).trim().toLowerCase();
    const value = decl
      .slice(colon + 1)
      .trim()
      .toLowerCase()
      .replace(/\s*!important$/, '');
    if (name) props.set(name, value);
  }
  return props;
}

function isBoldWeight(weight: string): boolean {
  if (weight === 'bold' || weight === 'bolder') return true;
  const n = Number(weight);
  return Number.isFinite(n) && n >= 600;
}

/** The marks in force inside `el`, given those around it. An explicit style beats the tag. */
function marksOf(el: Element, outer: Marks): Marks {
  const tag = el.tagName;
  const style = styleOf(el);
  const marks = { ...outer };

  const weight = style.get('font-weight');
  if (weight) marks.strong = isBoldWeight(weight);
  else if (tag === 'B' || tag === 'STRONG') marks.strong = true;

  const fontStyle = style.get('font-style');
  if (fontStyle) marks.em = fontStyle === 'italic' || fontStyle === 'oblique';
  else if (tag === 'I' || tag === 'EM') marks.em = true;

  const decoration = `${style.get('text-decoration') ?? ''} ${style.get('text-decoration-line') ?? ''}`;
  if (decoration.includes('line-through') || tag === 'S' || tag === 'STRIKE' || tag === 'DEL')
    marks.s = true;

  return marks;
}

const hasText = (nodes: readonly Node[]) => nodes.some((n) => /\S/.test(n.textContent ?? ''));

/** Word's hidden list bullet ("·", "1.", "a)") in a `mso-list:Ignore` span. */
const isWordListMarker = (el: Element) =>
  /mso-list:\s*ignore/i.test(el.getAttribute('style') ?? '');

/** A Word list paragraph: `mso-list:l0 level2 lfo1` names its list and its nesting level. */
function wordListItem(node: Node): { list: string; level: number; ordered: boolean } | null {
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const el = node as Element;
  if (el.tagName !== 'P' && !HEADINGS.has(el.tagName)) return null;
  const match = /mso-list:\s*(l\d+)\s+level(\d+)/i.exec(el.getAttribute('style') ?? '');
  if (!match) return null;
  const marker = [...el.querySelectorAll('span')].find(isWordListMarker)?.textContent ?? '';
  return {
    list: match[1]!.toLowerCase(),
    level: Number(match[2]),
    ordered: /^\s*([0-9]+|[a-z]{1,4})[.)]/i.test(marker),
  };
}

class Builder {
  readonly blocks: Node[] = [];
  private run: Node[] = [];
  private readonly doc: Document;

  constructor(doc: Document) {
    this.doc = doc;
  }

  inline(node: Node) {
    this.run.push(node);
  }

  /** Ends the paragraph being collected; whitespace alone makes none. */
  flush() {
    if (hasText(this.run)) {
      const p = this.doc.createElement('p');
      p.append(...trimBreaks(this.run));
      this.blocks.push(p);
    }
    this.run = [];
  }

  block(node: Node) {
    this.flush();
    this.blocks.push(node);
  }
}

/** Leading and trailing <br>s (and the blanks around them) of a paragraph are layout, not text. */
const isBlank = (node: Node) => node.nodeName === 'BR' || !/\S/.test(node.textContent ?? '');

function trimBreaks(nodes: Node[]): Node[] {
  let start = 0;
  let end = nodes.length;
  while (start < end && isBlank(nodes[start]!)) start++;
  while (end > start && isBlank(nodes[end - 1]!)) end--;
  return nodes.slice(start, end);
}

class Cleaner {
  private readonly doc: Document;

  constructor(doc: Document) {
    this.doc = doc;
  }

  text(value: string, marks: Marks): Node {
    let node: Node = this.doc.createTextNode(value);
    for (const mark of [...MARK_ORDER].reverse()) {
      if (!marks[mark]) continue;
      const wrapper = this.doc.createElement(mark);
      wrapper.append(node);
      node = wrapper;
    }
    return node;
  }

  children(parent: Node, marks: Marks, out: Builder) {
    const nodes = [...parent.childNodes];
    for (let i = 0; i < nodes.length; i++) {
      const item = wordListItem(nodes[i]!);
      if (!item) {
        this.node(nodes[i]!, marks, out);
        continue;
      }
      // A run of paragraphs of one Word list (blanks and comments between them allowed) becomes one list.
      const run: Element[] = [];
      let j = i;
      for (; j < nodes.length; j++) {
        const n = nodes[j]!;
        const next = wordListItem(n);
        if (next && next.list === item.list) run.push(n as Element);
        else if (next || (n.nodeType !== Node.COMMENT_NODE && /\S/.test(n.textContent ?? '')))
          break;
      }
      out.block(this.wordList(run, marks));
      i = j - 1;
    }
  }

  node(node: Node, marks: Marks, out: Builder) {
    if (node.nodeType === Node.TEXT_NODE) {
      out.inline(this.text(node.textContent ?? '', marks));
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    const el = node as Element;
    const tag = el.tagName.toUpperCase();
    if (DROPPED.has(tag) || isWordListMarker(el)) return;
    const inner = marksOf(el, marks);

    if (tag === 'BR') {
      if (!el.classList.contains('Apple-interchange-newline'))
        out.inline(this.doc.createElement('br'));
    } else if (HEADINGS.has(tag)) {
      const heading = this.doc.createElement(tag.toLowerCase());
      heading.append(...this.inlineOf(el, inner));
      if (hasText([...heading.childNodes])) out.block(heading);
    } else if (LISTS.has(tag)) {
      out.block(this.list(el, inner));
    } else if (BLOCKS.has(tag) || tag === 'LI') {
      out.flush();
      this.children(el, inner, out);
      out.flush();
    } else {
      this.children(el, inner, out);
    }
  }

  /** The inline content of a block, any nested blocks joined by line breaks. */
  inlineOf(el: Element, marks: Marks): Node[] {
    const sub = new Builder(this.doc);
    this.children(el, marks, sub);
    sub.flush();
    const parts = sub.blocks.map((b) =>
      b.nodeName === 'P' || HEADINGS.has(b.nodeName)
        ? [...b.childNodes]
        : [this.doc.createTextNode(b.textContent ?? '')],
    );
    return parts.flatMap((p, i) => (i === 0 ? p : [this.doc.createElement('br'), ...p]));
  }

  listItem(content: Element | null, marks: Marks): HTMLLIElement {
    const li = this.doc.createElement('li');
    if (content) {
      const sub = new Builder(this.doc);
      this.children(content, marks, sub);
      sub.flush();
      li.append(...sub.blocks);
    }
    return li;
  }

  list(el: Element, marks: Marks): Element {
    const list = this.doc.createElement(el.tagName.toLowerCase());
    for (const child of el.childNodes) {
      if (child.nodeType !== Node.ELEMENT_NODE) continue;
      const c = child as Element;
      if (LISTS.has(c.tagName)) {
        // Google Docs nests a sub-list beside the items rather than inside one.
        const last = list.lastElementChild ?? list.appendChild(this.doc.createElement('li'));
        last.append(this.list(c, marksOf(c, marks)));
      } else if (!DROPPED.has(c.tagName)) {
        const li = this.listItem(c, marksOf(c, marks));
        if (li.hasChildNodes()) list.append(li);
      }
    }
    return list;
  }

  wordList(items: readonly Element[], marks: Marks): Element {
    const make = (ordered: boolean) => this.doc.createElement(ordered ? 'ol' : 'ul');
    const first = wordListItem(items[0]!)!;
    const root = make(first.ordered);
    const stack: Array<{ list: Element; level: number }> = [{ list: root, level: first.level }];
    for (const item of items) {
      const { level, ordered } = wordListItem(item)!;
      while (stack.length > 1 && level < stack[stack.length - 1]!.level) stack.pop();
      let top = stack[stack.length - 1]!;
      if (level > top.level) {
        const nested = make(ordered);
        const parent =
          top.list.lastElementChild ?? top.list.appendChild(this.doc.createElement('li'));
        parent.append(nested);
        top = { list: nested, level };
        stack.push(top);
      }
      top.list.append(this.listItem(item, marksOf(item, marks)));
    }
    return root;
  }
}

/** The cleaned HTML for the editor to parse. HTML copied from our own editor passes unchanged. */
export function cleanPastedHtml(html: string): string {
  // ProseMirror tags its own clipboard; that content already fits the schema.
  if (/data-pm-slice/.test(html)) return html;
  const source = new DOMParser().parseFromString(html, 'text/html');
  const out = new Builder(source);
  new Cleaner(source).children(source.body, NO_MARKS, out);
  out.flush();
  const container = source.createElement('div');
  container.append(...out.blocks);
  return container.innerHTML;
}
