/** Text placed between tags: the three characters that could start or end markup. */
export const escapeText = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A value placed inside a double-quoted attribute. */
export const escapeAttribute = (value: string): string => escapeText(value).replace(/"/g, '&quot;');
