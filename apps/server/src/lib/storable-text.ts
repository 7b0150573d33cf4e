/**
 * Text that cannot be stored as sent: PostgreSQL refuses U+0000 in text (the write would fail
 * with a 500), and a lone UTF-16 surrogate ("\ud800" in JSON) becomes U+FFFD on its way to
 * UTF-8 in either engine, so it would read back changed. Both are refused up front with a 400.
 * Every string of every request passes here (a 16 KB autosave included), so the check is the
 * engine's own: isWellFormed is a native scan, several times faster than a regular expression
 * with lookarounds.
 */
export function isStorableText(text: string): boolean {
  return text.isWellFormed() && !text.includes('\u0000');
}
