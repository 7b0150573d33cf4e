import { COMMENT_ALLOWED_TAGS, SPOILER_CLASS, SPOILER_ELEMENT } from '@inkwell/contract/html';
import { textToParagraphs } from '../../lib/plainText.ts';

/*
 * The comment box is a plain textarea. What it holds is sent as HTML: a tag of the comment
 * allowlist (the toolbar writes them) is markup, and every other '<', '>' and '&' is text, so
 * "a<b" or "Tom & Jerry" arrive as typed. Lines become paragraphs and line breaks. The server's
 * sanitizer keeps only the allowlist either way.
 */

const ALLOWED_TAG = new RegExp(
  `&lt;(/?(?:${COMMENT_ALLOWED_TAGS.join('|')})(?:\\s[^<>]*?)?/?)&gt;`,
  'gi',
);

/**
 * The textarea's text as the body sent: blank lines part paragraphs, a newline is a break, all
 * escaped as every plain-text field is (lib/plainText.ts), then the allowlist's own tags let
 * through as markup.
 */
export function textToBody(text: string): string {
  return textToParagraphs(text).replace(
    ALLOWED_TAG,
    (_, tag: string) => `<${tag.replace(/&amp;/g, '&')}>`,
  );
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

/** A stored body back as the textarea's text, for an edit: the inverse of textToBody. */
export function bodyToText(html: string): string {
  return html
    .replace(/<\/p>\s*<p>/g, '\n\n')
    .replace(/<br\s*\/?>/g, '\n')
    .replace(/<\/?p>/g, '')
    .replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ENTITIES[name]!)
    .trim();
}

/** The marks of the toolbar: the tags each one puts around the selected text. */
const MARKS = {
  bold: ['<strong>', '</strong>'],
  italic: ['<em>', '</em>'],
  spoiler: [`<${SPOILER_ELEMENT} class="${SPOILER_CLASS}">`, `</${SPOILER_ELEMENT}>`],
} as const;
export type Mark = keyof typeof MARKS;

/** The text with the selection [start, end) wrapped in a mark, and where the selection is after. */
export function wrapSelection(
  text: string,
  start: number,
  end: number,
  mark: Mark,
): { text: string; start: number; end: number } {
  const [open, close] = MARKS[mark];
  const next = text.slice(0, start) + open + text.slice(start, end) + close + text.slice(end);
  return { text: next, start: start + open.length, end: end + open.length };
}
