import { ALLOWED_TAGS, LINK_ATTRIBUTES, TEXT_ELEMENTS } from '@inkwell/contract/html';
import DOMPurify from 'dompurify';
import { useMemo } from 'react';

/** A tag (from '<' to the next '>') or a character reference (from '&' to the next ';'). */
const MARKUP = /<[^>]*>?|&[^;\s<&]*;?/g;
/** The allowlist's text tags (every allowed element but the link), without attributes. */
const TEXT_TAG = new RegExp(`^</?(?:${TEXT_ELEMENTS.join('|')})\\s*/?>$`);
const CHARACTER_REFERENCE = /^&(?:[a-zA-Z][a-zA-Z\d]{1,31}|#\d{1,7}|#x[\da-fA-F]{1,6});$/;

/**
 * HTML made only of the editor's text tags without attributes, text without '<', and well-formed
 * character references: nothing in it can run, load or style anything, and it parses to what
 * DOMPurify would answer. Chapters are mostly just that, and recognizing it costs a scan instead
 * of DOMPurify's walk over every node, a large part of the reader's first render (decision 0016).
 * A link, an attribute, any other tag, a comment, a stray '<' or '&': DOMPurify decides.
 */
export function isInertHtml(html: string): boolean {
  for (const [token] of html.matchAll(MARKUP)) {
    if (!(token[0] === '<' ? TEXT_TAG : CHARACTER_REFERENCE).test(token)) return false;
  }
  return true;
}

/** DOMPurify keeping what the server's sanitizer keeps: the allowlist's tags, link attributes. */
export const purify = (html: string): string =>
  DOMPurify.sanitize(html, {
    ALLOWED_TAGS: [...ALLOWED_TAGS],
    ALLOWED_ATTR: [...LINK_ATTRIBUTES],
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
