/**
 * The elements stored HTML may hold (chapter content, biographies, chat): the editor's schema,
 * TipTap StarterKit as the web app configures it. sanitize.ts enforces the list; canonical.ts
 * recognizes its output without parsing it; both take the names from here, so they cannot
 * disagree about which tags exist.
 */

/** Elements with content, links aside. */
// prettier-ignore
export const CONTAINER_ELEMENTS = [
  'p', 'strong', 'em', 's', 'u', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'blockquote', 'code', 'pre',
] as const;

/** Every allowed tag: the containers, the two void ones and links. */
export const ALLOWED_TAGS: readonly string[] = [...CONTAINER_ELEMENTS, 'br', 'hr', 'a'];

/** Elements whose end is a line break in the plain text (search, word counts); so are br and hr. */
// prettier-ignore
export const LINE_ENDING_ELEMENTS = [
  'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'blockquote', 'pre',
] as const;
