/**
 * Text that cannot be stored as sent: PostgreSQL refuses U+0000 in text (the write would fail
 * with a 500), and a lone UTF-16 surrogate ("\ud800" in JSON) becomes U+FFFD on its way to
 * UTF-8 in either engine, so it would read back changed. Both are refused up front with a 400.
 */
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what this looks for
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}
