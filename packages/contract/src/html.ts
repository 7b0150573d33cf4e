/**
 * The one HTML allowlist: the elements stored HTML may hold (chapter content, biographies, chat),
 * which are exactly what the chapter editor's schema (TipTap StarterKit as the web app configures
 * it) writes. The server's sanitizer and its canonical fast path, the web app's SafeHtml and the
 * editor all take the names from here; tests hold each of them to this list. No imports: the web
 * bundle takes this file without zod.
 */

/** Elements with content, links aside. */
// prettier-ignore
export const CONTAINER_ELEMENTS = [
  'p', 'strong', 'em', 's', 'u', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'blockquote', 'code', 'pre',
] as const;

/** Elements without content: a line break and a rule. */
export const VOID_ELEMENTS = ['br', 'hr'] as const;

/** The one element that may carry attributes, and those attributes. */
export const LINK_ELEMENT = 'a';
export const LINK_ATTRIBUTES = ['href', 'rel'] as const;

/** Elements that are plain text markup when they carry no attribute: all of them but the link. */
export const TEXT_ELEMENTS: readonly string[] = [...CONTAINER_ELEMENTS, ...VOID_ELEMENTS];

/** Every allowed element. */
export const ALLOWED_TAGS: readonly string[] = [...TEXT_ELEMENTS, LINK_ELEMENT];

/** Elements whose end is a line break in the plain text (search, word counts); so are br and hr. */
// prettier-ignore
export const LINE_ENDING_ELEMENTS = [
  'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'blockquote', 'pre',
] as const;

/** The heading levels the list allows (h1 to h6): the editor offers these. */
export const HEADING_LEVELS = CONTAINER_ELEMENTS.flatMap((tag) =>
  /^h[1-6]$/.test(tag) ? [Number(tag[1]) as 1 | 2 | 3 | 4 | 5 | 6] : [],
);

/**
 * Comments (issue 19) allow less than chapters: bold, italic, strike, links, paragraphs and line
 * breaks, and a spoiler mark; no headings, lists, images or rules. A spoiler is
 * `<span class="spoiler">`, the only element besides the link that keeps an attribute; readers
 * see it hidden until they reveal it, and notifications and feeds show SPOILER_PLACEHOLDER.
 */
export const COMMENT_CONTAINER_ELEMENTS = ['p', 'strong', 'em', 's'] as const;
export const COMMENT_VOID_ELEMENTS = ['br'] as const;
export const SPOILER_ELEMENT = 'span';
export const SPOILER_CLASS = 'spoiler';
export const SPOILER_PLACEHOLDER = '[spoiler]';
export const COMMENT_ALLOWED_TAGS: readonly string[] = [
  ...COMMENT_CONTAINER_ELEMENTS,
  ...COMMENT_VOID_ELEMENTS,
  LINK_ELEMENT,
  SPOILER_ELEMENT,
];
/** A link in a comment is user-generated content: search engines and opened pages are told so. */
export const COMMENT_LINK_REL = 'nofollow ugc noopener';
