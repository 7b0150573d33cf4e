import sanitizeHtml from 'sanitize-html';

/**
 * The allowlist equals the editor's schema (TipTap StarterKit as configured in the web app):
 * anything the editor cannot produce is dropped. Applied on every write of chapter content,
 * biography and chat messages; the web app also runs DOMPurify on display.
 */
const CONTENT_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p', 'br', 'strong', 'em', 's', 'u', 'ul', 'ol', 'li',
    'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'code', 'pre', 'hr', 'a',
  ],
  allowedAttributes: { a: ['href', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // Scripts and styles lose their text too; other unknown tags keep their text content.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'template', 'title'],
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...(attribs.href ? { href: attribs.href } : {}), rel: 'nofollow noopener' },
    }),
    b: 'strong',
    i: 'em',
    strike: 's',
    del: 's',
  },
};

export function sanitizeContent(html: string): string {
  return sanitizeHtml(html, CONTENT_OPTIONS);
}

const TEXT_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [],
  allowedAttributes: {},
  nonTextTags: CONTENT_OPTIONS.nonTextTags,
};

const BLOCK_BOUNDARY = /<\/(p|h[1-6]|li|blockquote|pre)>|<br\s*\/?>|<hr\s*\/?>/gi;

/** Plain text of sanitized HTML, with block boundaries kept as line breaks; used for search and counts. */
export function htmlToText(html: string): string {
  const withBreaks = html.replace(BLOCK_BOUNDARY, (m) => `${m}\n`);
  return decodeEntities(sanitizeHtml(withBreaks, TEXT_OPTIONS))
    .replace(/[ \t]+/g, ' ')
    .replace(/\n\s*\n+/g, '\n')
    .trim();
}

/**
 * htmlToText for HTML that sanitizeContent produced, without parsing it a second time: that
 * output holds only allowlisted tags, and every '<' or '>' of its text is escaped, so dropping
 * the tags leaves exactly the text the parser would find. Same result as htmlToText (a unit
 * test compares the two); it keeps the autosave of a long chapter cheap.
 */
export function textOfSanitized(html: string): string {
  return decodeEntities(html.replace(BLOCK_BOUNDARY, (m) => `${m}\n`).replace(/<[^>]*>/g, ''))
    .replace(/[ \t]+/g, ' ')
    .replace(/\n\s*\n+/g, '\n')
    .trim();
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name] ?? '');
}

const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;
const WORD_JOINERS = new Set([0x27, 0x2019, 0x2d]); // ' ’ -

/** For each UTF-16 code unit outside the surrogates: 1 when WORD's [\p{L}\p{N}] matches it. */
let wordUnits: Uint8Array | undefined;
function wordUnitTable(): Uint8Array {
  if (!wordUnits) {
    const letterOrDigit = /[\p{L}\p{N}]/u;
    wordUnits = new Uint8Array(0x10000);
    for (let unit = 0; unit < 0x10000; unit++) {
      if (unit < 0xd800 || unit > 0xdfff) wordUnits[unit] = letterOrDigit.test(String.fromCharCode(unit)) ? 1 : 0;
    }
  }
  return wordUnits;
}

/**
 * Words as WORD defines them: runs of letters and digits, joined by an apostrophe or a hyphen.
 * A scan over a lookup table counts a chapter several times faster than the regular expression;
 * text with characters beyond the Basic Multilingual Plane (surrogate pairs) takes the expression.
 */
export function countWords(text: string): number {
  const isWord = wordUnitTable();
  const n = text.length;
  let count = 0;
  let i = 0;
  while (i < n) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdfff) return text.match(WORD)?.length ?? 0;
    if (!isWord[unit]) {
      i++;
      continue;
    }
    count++;
    i++;
    for (;;) {
      while (i < n && isWord[text.charCodeAt(i)]) i++;
      if (i + 1 < n && WORD_JOINERS.has(text.charCodeAt(i)) && isWord[text.charCodeAt(i + 1)]) {
        i++;
        continue;
      }
      break;
    }
  }
  return count;
}

/**
 * True when the HTML holds no visible text (e.g. `<p></p>` or `<p> <br></p>`). A caller that
 * already has the HTML's text (htmlToText) passes it, so it is not worked out twice.
 */
export function isBlankHtml(html: string, text: string = htmlToText(html)): boolean {
  return text.trim() === '' && !/<hr/i.test(html);
}
