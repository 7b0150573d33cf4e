const MARKUP = /[&<>]/;

/**
 * Text placed between tags: the three characters that could start or end markup. Most text
 * (a snippet's words, one by one) has none, and one test is cheaper than three replacements.
 */
export const escapeText = (text: string): string =>
  MARKUP.test(text)
    ? text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
    : text;

/** A value placed inside a double-quoted attribute. */
export const escapeAttribute = (value: string): string => escapeText(value).replace(/"/g, '&quot;');
