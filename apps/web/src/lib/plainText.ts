/**
 * Plain text typed in a textarea, as the HTML the server keeps (author's notes, announcements):
 * a blank line starts a paragraph, a single line break stays a line break. The server sanitizes
 * it all the same; escaping here only keeps typed `<` and `&` as text.
 */
export function textToParagraphs(text: string): string {
  const escape = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => `<p>${escape(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

/** The text of such HTML again, to edit it: paragraphs apart by a blank line. */
export function paragraphsToText(html: string): string {
  if (!html) return '';
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  for (const br of body.querySelectorAll('br')) br.replaceWith('\n');
  const blocks = [...body.children];
  return blocks.length
    ? blocks.map((block) => (block.textContent ?? '').trim()).join('\n\n')
    : (body.textContent ?? '').trim();
}

/**
 * How many characters typed text is over a limit of the server (0 when it fits). The server
 * measures what it is sent, the HTML of `textToParagraphs` (longer than the text by its tags and
 * escapes), so the form measures that too, not the text in the box.
 */
export function overLimit(text: string, max: number): number {
  return Math.max(0, textToParagraphs(text).length - max);
}

/** What a form says of text `over` characters too long (paragraphs and line breaks count too). */
export const tooLongMessage = (over: number) =>
  `This is ${over} ${over === 1 ? 'character' : 'characters'} too long (each paragraph and line break counts a few).`;
