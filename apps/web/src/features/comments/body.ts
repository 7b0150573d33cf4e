import { SPOILER_CLASS, SPOILER_ELEMENT } from '@inkwell/contract/html';

/*
 * The comment box is a plain textarea: what it holds is sent as HTML (the toolbar writes the few
 * tags the comment allowlist has, and the server's sanitizer keeps only those), with its lines
 * made into paragraphs and line breaks so that they survive.
 */

/** The textarea's text as the body sent: blank lines part paragraphs, a newline is a break. */
export function textToBody(text: string): string {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((part) => `<p>${part.trim().replace(/\n/g, '<br>')}</p>`)
    .join('');
}

/** A stored body back as the textarea's text, for an edit. */
export function bodyToText(html: string): string {
  return html
    .replace(/<\/p>\s*<p>/g, '\n\n')
    .replace(/<br\s*\/?>/g, '\n')
    .replace(/<\/?p>/g, '')
    .trim();
}

/** The marks of the toolbar: the tags each one puts around the selected text. */
export const MARKS = {
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
