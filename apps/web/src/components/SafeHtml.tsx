import DOMPurify from 'dompurify';
import { useMemo } from 'react';

/** A tag (from '<' to the next '>') or a character reference (from '&' to the next ';'). */
const MARKUP = /<[^>]*>?|&[^;\s<&]*;?/g;
/** The editor's text tags, without attributes. */
const TEXT_TAG = /^<\/?(?:p|br|strong|em|s|u|ul|ol|li|h[1-6]|blockquote|code|pre|hr)\s*\/?>$/;
const CHARACTER_REFERENCE = /^&(?:[a-zA-Z][a-zA-Z\d]{1,31}|#\d{1,7}|#x[\da-fA-F]{1,6});$/;

/**
 * HTML made only of the editor's text tags without attributes, text without '<', and well-formed
 * character references: nothing in it can run, load or style anything, and it parses to what
 * DOMPurify would answer. Chapters are mostly just that, and recognizing it costs a scan instead
 * of DOMPurify's walk over every node (about a quarter of the reader's first render; decision
 * 0016). A link, an attribute, any other tag, a comment, a stray '<' or '&': DOMPurify decides.
 */
export function isInertHtml(html: string): boolean {
  for (const [token] of html.matchAll(MARKUP)) {
    if (!(token[0] === '<' ? TEXT_TAG : CHARACTER_REFERENCE).test(token)) return false;
  }
  return true;
}

/** DOMPurify with the app's settings. */
export const purify = (html: string): string =>
  DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button'],
  });

/**
 * Shown HTML always goes through DOMPurify, even though the server sanitized it on write, unless
 * it is inert (above): then it is shown as it is.
 */
export const sanitize = (html: string): string => (isInertHtml(html) ? html : purify(html));

export function SafeHtml({ html, className }: { html: string; className?: string }) {
  const clean = useMemo(() => sanitize(html), [html]);
  return <div className={className} dangerouslySetInnerHTML={{ __html: clean }} />;
}
