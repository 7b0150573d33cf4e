import { badRequest } from './errors.ts';

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

const NOT_STORABLE = 'Text must be valid Unicode without NUL (U+0000) characters';

/** Whether every string (value or key) in `value` is storable; iterative, so any depth is fine. */
function allStorable(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (!isStorableText(next)) return false;
    } else if (Array.isArray(next)) {
      for (const item of next) pending.push(item);
    } else if (next !== null && typeof next === 'object') {
      for (const [key, inner] of Object.entries(next)) {
        if (!isStorableText(key)) return false;
        pending.push(inner);
      }
    }
  }
  return true;
}

/**
 * 400 when any string in `parts` is not storable text, naming the field that holds it (a part
 * that is an object is a set of named fields: a query, a body, a form), as every other refusal
 * of a field does. A field whose name itself is not storable cannot be named, and is not.
 */
export function assertStorable(...parts: unknown[]): void {
  for (const part of parts) {
    const fields =
      part !== null && typeof part === 'object' && !Array.isArray(part)
        ? Object.entries(part)
        : [['', part] as const];
    for (const [name, value] of fields) {
      if (allStorable(value) && isStorableText(name)) continue;
      const named = name !== '' && isStorableText(name);
      throw badRequest(named ? `${name}: ${NOT_STORABLE}` : NOT_STORABLE, named ? name : undefined);
    }
  }
}
