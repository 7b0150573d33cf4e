/**
 * The sanitizer's fast path: recognizes, in one pass and without building a tree, HTML that is
 * already in the form sanitizeContent writes, and answers exactly what the sanitizer would.
 * Anything else answers null, and the caller runs the sanitizer. The editor saves the same
 * canonical HTML again and again (every autosave), so parsing it with htmlparser2 each time is
 * wasted work (docs/decisions/0014-canonical-html-fast-path.md).
 *
 * Accepted, and nothing else:
 * - text without '<' or '>', where '&' only starts `&amp;`, `&lt;`, `&gt;` or `&nbsp;`;
 * - the allowlist's tags in the sanitizer's spelling: `<p>`, `</p>`, ..., `<br />`, `<hr />`,
 *   and `<a href="URL" rel="nofollow noopener">` with an http, https, mailto or relative URL
 *   made of plain URL characters (or with no URL at all);
 * - each closing tag closes the innermost open element, no element stays open at the end, and
 *   no tag is one that htmlparser2 would close an open element for (`<p>` in a `<p>`, `<li>` in
 *   a `<li>`, a block in a `<p>`): htmlparser2 would change the nesting of anything else;
 * - the editor's own spelling of three things the sanitizer rewrites: `<br>`, `<hr>` and
 *   `&nbsp;`, answered as `<br />`, `<hr />` and U+00A0 as the sanitizer writes them.
 * That grammar admits no attribute but a checked link and no element outside the allowlist, so
 * what this path lets through is safe by construction; a unit test also compares it with
 * sanitize-html on the Big List of Naughty Strings, XSS vectors and generated markup.
 */
import { CONTAINER_ELEMENTS, LINE_ENDING_ELEMENTS, VOID_ELEMENTS } from '@inkwell/contract/html';
import { WordCounter } from './words.ts';

/** What an opening tag does in the grammar. */
interface TagRule {
  /** The closing tag of the element it opens, or null for a void tag (br, hr: a line break). */
  closedBy: string | null;
  /** The spelling the sanitizer writes; differs from the tag for the editor's `<br>` and `<hr>`. */
  written: string;
  /** The element (by closing tag) that htmlparser2 closes first when it is the innermost one. */
  closesOpen: string | null;
}

/** Elements after whose end the text has a line break (as BLOCK_BOUNDARY in sanitize.ts). */
const LINE_ENDING = new Set<string>(LINE_ENDING_ELEMENTS.map(closing));
/** Tags that make htmlparser2 close an open `<p>` first (its openImpliesClose table). */
// prettier-ignore
const CLOSES_P = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'hr', 'ol', 'pre', 'ul']);

function closing(name: string): string {
  return `</${name}>`;
}

function closesOpen(name: string): string | null {
  if (name === 'li') return closing('li');
  return CLOSES_P.has(name) ? closing('p') : null;
}

/** Opening and void tags by their exact text (links have their own rule). */
const OPENING_TAGS = new Map<string, TagRule>(
  CONTAINER_ELEMENTS.map((name) => [
    `<${name}>`,
    {
      closedBy: closing(name),
      written: `<${name}>`,
      closesOpen: closesOpen(name),
    },
  ]),
);
for (const name of VOID_ELEMENTS) {
  const rule = {
    closedBy: null,
    written: `<${name} />`,
    closesOpen: closesOpen(name),
  };
  OPENING_TAGS.set(`<${name} />`, rule);
  OPENING_TAGS.set(`<${name}>`, rule);
}

/**
 * A link as the sanitizer writes it. The URL holds only characters that neither entity decoding
 * nor the sanitizer's escaping change (and the entities that escaping writes), and starts with a
 * scheme the allowlist keeps, spelled in lower case, or as a relative URL (not `//`, which the
 * allowlist refuses): the sanitizer's scheme check reads it the same. A link whose URL the
 * sanitizer dropped keeps only its rel.
 */
const LINK =
  /<a href="(?:https?:\/\/|mailto:|\/(?!\/)|[#?])(?:[A-Za-z0-9\-._~:/?#[\]@!$'()*+,;=%]|&(?:amp|lt|gt|quot);)*" rel="nofollow noopener">/y;
const LINK_WITHOUT_URL = '<a rel="nofollow noopener">';

/** Entities the grammar admits in text, with the character they stand for. */
const TEXT_ENTITIES: ReadonlyArray<readonly [string, string]> = [
  ['&amp;', '&'],
  ['&lt;', '<'],
  ['&gt;', '>'],
  ['&nbsp;', '\u00a0'],
];

interface CanonicalContent {
  /** Exactly what sanitizeContent answers for the input. */
  html: string;
  /**
   * Its text as textOfSanitized reads it before tidying whitespace: tags dropped, a line break
   * after each block and each `<br />` or `<hr />`, entities decoded.
   */
  rawText: string;
  /** The words of that text, counted on the way (tidying whitespace changes no word). */
  words: WordCounter;
}

/** The sanitizer's answer and its raw text for HTML in the canonical form; null for anything else. */
export function readCanonicalContent(html: string): CanonicalContent | null {
  /** The closing tags of the open elements, innermost last. */
  const open: string[] = [];
  const words = new WordCounter();
  let text = '';
  // The answer is built only when the editor's spelling needs rewriting; otherwise it is `html`.
  let written = '';
  let writtenUpTo = 0;
  const n = html.length;
  // The next '<', '&' and '>' at or after i (n when there is none), each found by the engine's
  // own search and looked for again only once passed: text runs are then taken whole.
  let nextLt = indexOrEnd(html, '<', 0);
  let nextAmp = indexOrEnd(html, '&', 0);
  let nextGt = indexOrEnd(html, '>', 0);
  let i = 0;
  while (i < n) {
    const runEnd = Math.min(nextLt, nextAmp);
    // A '>' in text.
    if (nextGt < runEnd) return null;
    if (runEnd > i) {
      words.pushRange(html, i, runEnd);
      text += html.slice(i, runEnd);
      i = runEnd;
      if (i === n) break;
    }
    if (i === nextAmp) {
      const entity = TEXT_ENTITIES.find(([name]) => html.startsWith(name, i));
      if (!entity) return null;
      const [name, character] = entity;
      text += character;
      words.pushRange(character, 0, 1);
      if (name === '&nbsp;') {
        written += html.slice(writtenUpTo, i) + character;
        writtenUpTo = i + name.length;
      }
      i += name.length;
      nextAmp = indexOrEnd(html, '&', i);
      continue;
    }
    // A tag, up to the first '>' after its '<'.
    const end = nextGt;
    if (end === n) return null;
    const tag = html.slice(i, end + 1);
    if (html.charCodeAt(i + 1) === 0x2f /* '/' */) {
      if (tag !== open.pop()) return null;
      if (LINE_ENDING.has(tag)) {
        text += '\n';
        words.pushRange('\n', 0, 1);
      }
    } else if (tag.startsWith('<a ')) {
      LINK.lastIndex = i;
      if (tag !== LINK_WITHOUT_URL && !(LINK.test(html) && LINK.lastIndex === end + 1)) return null;
      open.push(closing('a'));
    } else {
      const rule = OPENING_TAGS.get(tag);
      if (!rule || (rule.closesOpen !== null && open.at(-1) === rule.closesOpen)) return null;
      if (rule.closedBy !== null) {
        open.push(rule.closedBy);
      } else {
        text += '\n';
        words.pushRange('\n', 0, 1);
      }
      if (rule.written !== tag) {
        written += html.slice(writtenUpTo, i) + rule.written;
        writtenUpTo = end + 1;
      }
    }
    i = end + 1;
    nextLt = indexOrEnd(html, '<', i);
    nextGt = indexOrEnd(html, '>', i);
    // A link's URL may hold '&amp;': an '&' inside the tag is not text.
    if (nextAmp < i) nextAmp = indexOrEnd(html, '&', i);
  }
  if (open.length > 0) return null;
  return {
    html: writtenUpTo === 0 ? html : written + html.slice(writtenUpTo),
    rawText: text,
    words,
  };
}

function indexOrEnd(text: string, search: string, from: number): number {
  const at = text.indexOf(search, from);
  return at === -1 ? text.length : at;
}
