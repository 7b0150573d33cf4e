import sanitizeHtml from 'sanitize-html';
import {
  ALLOWED_TAGS,
  LINE_ENDING_ELEMENTS,
  LINK_ATTRIBUTES,
  LINK_ELEMENT,
} from '@inkwell/contract/html';
import { readCanonicalContent } from './canonical.ts';
import { countWords } from './words.ts';

export { countWords };

/**
 * The allowlist (`@inkwell/contract/html`) equals the editor's schema: anything the editor cannot
 * produce is dropped. Applied on every write of chapter content, author's notes and chat messages; the
 * web app also runs DOMPurify, with the same list, on display. canonical.ts recognizes this
 * configuration's output without parsing it: a change to the rules below (attributes, schemes,
 * renamed tags) needs one there (the unit test that compares the two fails otherwise).
 */
/** What every allowlist here shares (chapter content, comments): links, dropped tags, old names. */
export const SHARED_OPTIONS = {
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // Scripts and styles lose their text too; other unknown tags keep their text content.
  // prettier-ignore
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'template', 'title'],
} satisfies sanitizeHtml.IOptions;

/** Old names of allowed elements, written as the editor writes them. */
export const RENAMED_TAGS = { b: 'strong', i: 'em', strike: 's', del: 's' } as const;

/** A link keeps only its address, and takes the given rel whatever it had. */
export function linkWithRel(rel: string): sanitizeHtml.Transformer {
  return (tagName, attribs) => ({
    tagName,
    attribs: { ...(attribs.href ? { href: attribs.href } : {}), rel },
  });
}

const CONTENT_OPTIONS: sanitizeHtml.IOptions = {
  ...SHARED_OPTIONS,
  allowedTags: [...ALLOWED_TAGS],
  allowedAttributes: { [LINK_ELEMENT]: [...LINK_ATTRIBUTES] },
  transformTags: { a: linkWithRel('nofollow noopener'), ...RENAMED_TAGS },
};

/** The allowlisted form of `html`; HTML already in that form is recognized without parsing it. */
export function sanitizeContent(html: string): string {
  return readCanonicalContent(html)?.html ?? sanitizeWithParser(html);
}

/**
 * sanitize-html itself, without the fast path: the definition of the allowlisted form, which
 * readCanonicalContent must answer exactly (a unit test holds the two side by side).
 */
export function sanitizeWithParser(html: string): string {
  return sanitizeHtml(html, CONTENT_OPTIONS);
}

/**
 * sanitizeContent with what a chapter stores beside it: the word count of its text
 * (textOfSanitized, countWords) and whether it shows no text at all (isBlankHtml). HTML already in
 * the allowlisted form, as the editor saves it, takes a single pass for all three.
 */
export function sanitizeContentWithWords(html: string): {
  html: string;
  words: number;
  blank: boolean;
} {
  const canonical = readCanonicalContent(html);
  if (canonical) {
    // Its text before tidying: tidying changes only whitespace, so neither a word nor blankness.
    const text = canonical.rawText;
    return {
      html: canonical.html,
      words: canonical.words.total(text),
      blank: isBlankHtml(canonical.html, text),
    };
  }
  const sanitized = sanitizeWithParser(html);
  const text = textOfSanitized(sanitized);
  return { html: sanitized, words: countWords(text), blank: isBlankHtml(sanitized, text) };
}

const TEXT_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [],
  allowedAttributes: {},
  nonTextTags: CONTENT_OPTIONS.nonTextTags,
};

const BLOCK_BOUNDARY = new RegExp(
  `</(${LINE_ENDING_ELEMENTS.join('|')})>|<br\\s*/?>|<hr\\s*/?>`,
  'gi',
);

/** Plain text of sanitized HTML, with block boundaries kept as line breaks; used for search and counts. */
export function htmlToText(html: string): string {
  const withBreaks = html.replace(BLOCK_BOUNDARY, (m) => `${m}\n`);
  return tidyText(decodeEntities(sanitizeHtml(withBreaks, TEXT_OPTIONS)));
}

/**
 * htmlToText for HTML that sanitizeContent produced, without parsing it a second time: that
 * output holds only allowlisted tags, and every '<' or '>' of its text is escaped, so dropping
 * the tags leaves exactly the text the parser would find. Same result as htmlToText (a unit
 * test compares the two); it keeps the autosave of a long chapter cheap.
 */
export function textOfSanitized(html: string): string {
  return tidyText(
    decodeEntities(html.replace(BLOCK_BOUNDARY, (m) => `${m}\n`).replace(/<[^>]*>/g, '')),
  );
}

/**
 * textOfSanitized for the first characters of sanitized HTML only (a summary needs no more than
 * its start): a tag or an entity cut off at the end is left out.
 */
export function textOfSanitizedStart(start: string): string {
  const open = start.lastIndexOf('<');
  const whole = open > start.lastIndexOf('>') ? start.slice(0, open) : start;
  return textOfSanitized(whole.replace(/&[#\w]*$/, ''));
}

const SPACE_RUN = /[ \t]+/g;
const BLANK_LINES = /\n\s*\n+/g;
const HAS_BLANK_LINE = /\n\s*\n/;

/**
 * Runs of spaces and tabs become one space, blank lines go, and the ends are trimmed. Each
 * replacement runs only when the text has something it would change: most chapters have none,
 * and a replace over 16 KB of text costs even when it swaps every space for a space.
 */
function tidyText(text: string): string {
  let tidy = text;
  if (tidy.includes('\t') || tidy.includes('  ')) tidy = tidy.replace(SPACE_RUN, ' ');
  if (HAS_BLANK_LINE.test(tidy)) tidy = tidy.replace(BLANK_LINES, '\n');
  return tidy.trim();
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  '#39': "'",
  nbsp: ' ',
};

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name] ?? '');
}

/**
 * True when the HTML holds no visible text (e.g. `<p></p>` or `<p> <br></p>`). A caller that
 * already has the HTML's text (htmlToText) passes it, so it is not worked out twice.
 */
export function isBlankHtml(html: string, text: string = htmlToText(html)): boolean {
  return text.trim() === '' && !/<hr/i.test(html);
}
