/**
 * What a search box may hold (issue 23 §5): any text is a query. Nothing a reader types or pastes
 * is refused; it is made into a query instead. The API's search schema and the web app's search
 * box both go through here. No imports: the web bundle takes this file without zod.
 */

/** The longest query, in characters (code points); longer text is cut there. */
export const SEARCH_QUERY_MAX_LENGTH = 500;

// Line breaks and tabs separate words: they become spaces.
const SPACING = /[\t\n\v\f\r\u0085\u2028\u2029]/g;
// Other C0 and C1 controls (NUL among them), and UTF-16 halves without their other half.
const UNWANTED =
  // eslint-disable-next-line no-control-regex -- control characters are what this looks for
  /[\u0000-\u001f\u007f-\u009f]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A query from any text: controls dropped (line breaks and tabs become spaces), then cut to
 * SEARCH_QUERY_MAX_LENGTH characters, never inside a character. Several values (`?q=a&q=b`) are
 * read as one query of their words.
 */
export function normalizeSearchText(text: string | readonly string[] | undefined | null): string {
  const joined = Array.isArray(text) ? text.join(' ') : typeof text === 'string' ? text : '';
  const clean = joined.replace(SPACING, ' ').replace(UNWANTED, '');
  const chars = Array.from(clean);
  return chars.length > SEARCH_QUERY_MAX_LENGTH
    ? chars.slice(0, SEARCH_QUERY_MAX_LENGTH).join('')
    : clean;
}
