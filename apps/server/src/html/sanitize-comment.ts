import sanitizeHtml from 'sanitize-html';
import {
  COMMENT_ALLOWED_TAGS,
  COMMENT_LINK_REL,
  LINK_ELEMENT,
  SPOILER_CLASS,
  SPOILER_ELEMENT,
  SPOILER_PLACEHOLDER,
} from '@inkwell/contract/html';
import { linkWithRel, RENAMED_TAGS, SHARED_OPTIONS, textOfSanitized } from './sanitize.ts';

/**
 * Comment bodies (issue 19) take the comment allowlist of `@inkwell/contract/html`: bold, italic,
 * strike, links, paragraphs, line breaks and the spoiler mark; everything else is dropped, keeping
 * its text (headings and list items become paragraphs, images vanish). The web app's SafeHtml applies the same
 * list on display.
 */
const COMMENT_OPTIONS: sanitizeHtml.IOptions = {
  ...SHARED_OPTIONS,
  allowedTags: [...COMMENT_ALLOWED_TAGS],
  allowedAttributes: { [LINK_ELEMENT]: ['href', 'rel'], [SPOILER_ELEMENT]: ['class'] },
  allowedClasses: { [SPOILER_ELEMENT]: [SPOILER_CLASS] },
  transformTags: {
    a: linkWithRel(COMMENT_LINK_REL),
    // A span is kept only as a spoiler; any other one is renamed to a tag outside the list,
    // which drops the element and keeps its text.
    [SPOILER_ELEMENT]: (tagName: string, attribs: sanitizeHtml.Attributes) =>
      attribs.class?.split(/\s+/).includes(SPOILER_CLASS)
        ? { tagName, attribs: { class: SPOILER_CLASS } }
        : { tagName: 'x-unwrap', attribs: {} as sanitizeHtml.Attributes },
    // Headings and list items keep their lines as paragraphs.
    ...Object.fromEntries(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li'].map((tag) => [tag, 'p'])),
    ...RENAMED_TAGS,
  },
};

/** The allowlisted form of a comment body, and its plain text (spoilers included). */
export function sanitizeComment(html: string): { html: string; text: string } {
  const clean = sanitizeHtml(html, COMMENT_OPTIONS);
  return { html: clean, text: textOfSanitized(clean) };
}

const SPOILER_OPEN = `<${SPOILER_ELEMENT} class="${SPOILER_CLASS}">`;
const SPAN_TAG = new RegExp(`${SPOILER_OPEN}|</${SPOILER_ELEMENT}>`, 'g');

/**
 * The plain text of a sanitized comment with every spoiler replaced by SPOILER_PLACEHOLDER: what
 * notifications and feeds show, so a spoiler is never read where it cannot be hidden. Spoilers
 * may nest (the toolbar marks a selection that holds one): the outermost one is replaced whole,
 * counting depth, as a pattern stopping at the first end tag would leave the rest readable. In
 * sanitized comment HTML every span is a spoiler (others are unwrapped), so every end tag of a
 * span closes one.
 */
export function commentTextWithoutSpoilers(html: string): string {
  let text = '';
  let depth = 0;
  let from = 0;
  for (const tag of html.matchAll(SPAN_TAG)) {
    const opens = tag[0] === SPOILER_OPEN;
    if (opens && depth++ === 0) text += html.slice(from, tag.index) + SPOILER_PLACEHOLDER;
    if (!opens && depth > 0 && --depth === 0) from = tag.index + tag[0].length;
  }
  return textOfSanitized(depth > 0 ? text : text + html.slice(from));
}
