import {
  ALLOWED_TAGS,
  COMMENT_ALLOWED_TAGS,
  COMMENT_LINK_REL,
  LINK_ATTRIBUTES,
  LINK_ELEMENT,
  SPOILER_CLASS,
  SPOILER_ELEMENT,
  TEXT_ELEMENTS,
} from '@inkwell/contract/html';
import DOMPurify from 'dompurify';
import { useMemo, type KeyboardEvent, type MouseEvent } from 'react';

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

/** The one element a search snippet may hold: the matched words' highlight. */
const SNIPPET_TAGS = ['mark'];

/**
 * A search snippet (issue 21) with nothing but its <mark>s: the server sends it escaped already,
 * and this keeps it so even if it did not (defence in depth). No attribute survives.
 */
export const purifySnippet = (html: string): string =>
  DOMPurify.sanitize(html, { ALLOWED_TAGS: SNIPPET_TAGS, ALLOWED_ATTR: [] });

/** A search snippet shown inline, its matched words highlighted. */
export function Snippet({ html, className }: { html: string; className?: string }) {
  const clean = useMemo(() => purifySnippet(html), [html]);
  return <span className={className} dangerouslySetInnerHTML={{ __html: clean }} />;
}

/** What a hidden spoiler shows (and is named by) in place of its text. */
const SPOILER_COVER = 'Spoiler';

/**
 * A comment's HTML (issue 19) with the comment allowlist of the contract: fewer tags, no other
 * class than the spoiler mark on its span, every link with COMMENT_LINK_REL. A spoiler becomes a
 * button (focusable, aria-expanded false) showing only SPOILER_COVER; its text is inside it but
 * `hidden` (out of sight and of the accessibility tree) until it is revealed.
 */
export function purifyComment(html: string): string {
  const fragment = DOMPurify.sanitize(html, {
    ALLOWED_TAGS: [...COMMENT_ALLOWED_TAGS],
    ALLOWED_ATTR: [...LINK_ATTRIBUTES, 'class'],
    RETURN_DOM_FRAGMENT: true,
  });
  for (const element of fragment.querySelectorAll('[class]')) {
    const spoiler =
      element.localName === SPOILER_ELEMENT && element.getAttribute('class') === SPOILER_CLASS;
    if (!spoiler) element.removeAttribute('class');
  }
  for (const link of fragment.querySelectorAll(LINK_ELEMENT))
    link.setAttribute('rel', COMMENT_LINK_REL);
  // Innermost first, so a spoiler inside a spoiler is wrapped before its outer one moves it.
  const spoilers = [...fragment.querySelectorAll(`${SPOILER_ELEMENT}.${SPOILER_CLASS}`)].reverse();
  for (const span of spoilers) {
    const text = document.createElement('span');
    text.className = 'spoiler-text';
    text.hidden = true;
    text.append(...span.childNodes);
    const cover = document.createElement('span');
    cover.className = 'spoiler-cover';
    cover.textContent = SPOILER_COVER;
    span.append(cover, text);
    span.setAttribute('role', 'button');
    span.setAttribute('tabindex', '0');
    span.setAttribute('aria-expanded', 'false');
  }
  const wrapper = document.createElement('div');
  wrapper.append(fragment);
  return wrapper.innerHTML;
}

/**
 * Shows a hidden spoiler: a click on it, or Enter or Space while it has the focus. One holding a
 * link stops being a button once shown (a link inside a button could not be reached).
 */
function revealSpoiler(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  const spoiler = target.closest(`${SPOILER_ELEMENT}.${SPOILER_CLASS}[aria-expanded="false"]`);
  if (!spoiler) return false;
  spoiler.querySelector(':scope > .spoiler-cover')?.remove();
  spoiler.querySelector<HTMLElement>(':scope > .spoiler-text')?.removeAttribute('hidden');
  spoiler.setAttribute('aria-expanded', 'true');
  if (spoiler.querySelector(LINK_ELEMENT)) {
    for (const name of ['role', 'tabindex', 'aria-expanded']) spoiler.removeAttribute(name);
    spoiler.setAttribute('data-revealed', '');
  }
  return true;
}

const onSpoilerClick = (e: MouseEvent) => {
  if (revealSpoiler(e.target)) e.preventDefault();
};
const onSpoilerKey = (e: KeyboardEvent) => {
  if ((e.key === 'Enter' || e.key === ' ') && revealSpoiler(e.target)) e.preventDefault();
};

/**
 * Stored HTML shown safely: a chapter's, an author's note or a chat line's with the one allowlist,
 * or with `allow="comment"` a comment's, with the comment allowlist and its spoilers.
 */
export function SafeHtml({
  html,
  className,
  allow = 'chapter',
}: {
  html: string;
  className?: string;
  allow?: 'chapter' | 'comment';
}) {
  const clean = useMemo(
    () => (allow === 'comment' ? purifyComment(html) : sanitize(html)),
    [html, allow],
  );
  if (allow === 'comment')
    return (
      // The spoilers inside are the buttons (role, tabindex, keys); the wrapper only listens.
      <div
        className={className}
        onClick={onSpoilerClick}
        onKeyDown={onSpoilerKey}
        dangerouslySetInnerHTML={{ __html: clean }}
      />
    );
  return <div className={className} dangerouslySetInnerHTML={{ __html: clean }} />;
}
