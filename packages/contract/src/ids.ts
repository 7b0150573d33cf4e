/**
 * The one spelling of a record's id (issue 23 §4): decimal digits, no sign, no leading zero, no
 * exponent, fraction or space, within the database's 32-bit integer range. One record has one
 * address, so `/api/books/16` is book 16 and `/api/books/0x10`, `016`, `+16`, `1.6e1` or `16.0`
 * name nothing (404). The server's path schemas, its page preloads and the web app's routes all
 * read ids through here. No imports: the web bundle takes this file without zod.
 */

/** The largest id a row can have (PostgreSQL `integer`, and SQLite rows written through it). */
export const ID_MAX = 2_147_483_647;

/** Decimal digits without a leading zero, at most 10 of them (ID_MAX has 10). */
export const ID_PATTERN = /^[1-9][0-9]{0,9}$/;

/** The id a path segment names, or undefined when the text is not an id as written by Inkwell. */
export function parseId(text: string | undefined | null): number | undefined {
  if (typeof text !== 'string' || !ID_PATTERN.test(text)) return undefined;
  const id = Number(text);
  return id <= ID_MAX ? id : undefined;
}
