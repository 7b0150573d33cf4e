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

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name] ?? '');
}

const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

export function countWords(text: string): number {
  let count = 0;
  for (const _ of text.matchAll(WORD)) count++;
  return count;
}

/** True when the HTML holds no visible text (e.g. `<p></p>` or `<p> <br></p>`). */
export function isBlankHtml(html: string): boolean {
  return htmlToText(html).trim() === '' && !/<hr/i.test(html);
}
