import zlib from 'node:zlib';

/**
 * How a kept version's content is stored (docs/decisions/0033-revisions.md). A save stores its
 * content as it is (a trigger copies the chapter row); the scheduled job then packs
 * it: deflated whole (a "key" version), or, when that is much smaller, as a deflated delta
 * against the version kept before it. Saves between two autosaves differ in one place, so a
 * delta is the common prefix's and suffix's lengths and the text between them. Chains stop at
 * MAX_CHAIN deltas, so reading any version decodes at most that many.
 */
export const MAX_CHAIN = 32;

export interface Delta {
  /** Characters kept from the base's start. */
  prefix: number;
  /** Characters kept from the base's end. */
  suffix: number;
  /** What stands between them in the new text. */
  middle: string;
}

/** The one-place difference that turns `base` into `text`. */
export function diffOnePlace(base: string, text: string): Delta {
  const shorter = Math.min(base.length, text.length);
  let prefix = 0;
  while (prefix < shorter && base.charCodeAt(prefix) === text.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (
    suffix < shorter - prefix &&
    base.charCodeAt(base.length - 1 - suffix) === text.charCodeAt(text.length - 1 - suffix)
  )
    suffix++;
  // The middle is stored as UTF-8, so neither end may split a surrogate pair (an emoji): a
  // common prefix ending on a high surrogate, or a common suffix starting on a low one, gives
  // that code unit back to the middle.
  if (prefix > 0 && isHighSurrogate(text.charCodeAt(prefix - 1))) prefix--;
  if (suffix > 0 && isLowSurrogate(text.charCodeAt(text.length - suffix))) suffix--;
  return { prefix, suffix, middle: text.slice(prefix, text.length - suffix) };
}

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLowSurrogate = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

export function applyDelta(base: string, delta: Delta): string {
  return base.slice(0, delta.prefix) + delta.middle + base.slice(base.length - delta.suffix);
}

const deflate = (text: string) => zlib.deflateRawSync(Buffer.from(text, 'utf8'), { level: 9 });
const inflate = (packed: Uint8Array) => zlib.inflateRawSync(packed).toString('utf8');

/** The whole content, deflated. */
export const packWhole = (content: string): Buffer => deflate(content);

/** A delta, deflated: "prefix,suffix," then the middle. */
export const packDelta = (delta: Delta): Buffer =>
  deflate(`${delta.prefix},${delta.suffix},${delta.middle}`);

export function unpackWhole(packed: Uint8Array): string {
  return inflate(packed);
}

export function unpackDelta(packed: Uint8Array): Delta {
  const text = inflate(packed);
  const first = text.indexOf(',');
  const second = text.indexOf(',', first + 1);
  return {
    prefix: Number(text.slice(0, first)),
    suffix: Number(text.slice(first + 1, second)),
    middle: text.slice(second + 1),
  };
}

/**
 * Packs `content`, given the version kept before it (its content and how many deltas lead to
 * it): a delta when the chain may grow and the delta is under half the whole, else the whole.
 * Prose deflates to no less than a quarter of its size, so a delta under an eighth of the raw
 * text is taken without deflating the whole to compare (the common case, and the costly part).
 */
export function packVersion(
  content: string,
  previous: { content: string; depth: number } | undefined,
): { packed: Buffer; delta: boolean } {
  if (!previous || previous.depth >= MAX_CHAIN) return { packed: packWhole(content), delta: false };
  const delta = packDelta(diffOnePlace(previous.content, content));
  if (delta.length * 8 < content.length) return { packed: delta, delta: true };
  const whole = packWhole(content);
  return delta.length * 2 < whole.length
    ? { packed: delta, delta: true }
    : { packed: whole, delta: false };
}
