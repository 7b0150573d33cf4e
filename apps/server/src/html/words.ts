/** Words as the whole product counts them (word_count, the editor's live count): see WORD. */
const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

/** For each UTF-16 code unit outside the surrogates: 1 when WORD's [\p{L}\p{N}] matches it. */
let wordUnits: Uint8Array | undefined;
function wordUnitTable(): Uint8Array {
  if (!wordUnits) {
    const letterOrDigit = /[\p{L}\p{N}]/u;
    wordUnits = new Uint8Array(0x10000);
    for (let unit = 0; unit < 0x10000; unit++) {
      if (unit < 0xd800 || unit > 0xdfff)
        wordUnits[unit] = letterOrDigit.test(String.fromCharCode(unit)) ? 1 : 0;
    }
  }
  return wordUnits;
}

const OUTSIDE = 0;
const IN_WORD = 1;
/** Just after an apostrophe or hyphen that follows a word: a letter or digit continues the word. */
const AFTER_JOINER = 2;

/**
 * Counts WORD matches one UTF-16 unit at a time, so that a pass that reads text for another
 * reason (the canonical HTML reader) counts its words on the way instead of scanning it again.
 * A scan over a lookup table is several times faster than the regular expression; text with
 * characters beyond the Basic Multilingual Plane (surrogate pairs) is counted by the expression.
 */
export class WordCounter {
  private readonly isWord = wordUnitTable();
  private state = OUTSIDE;
  private count = 0;
  private sawSurrogate = false;

  push(unit: number): void {
    if (this.isWord[unit] === 1) {
      if (this.state === OUTSIDE) this.count++;
      this.state = IN_WORD;
    } else if (this.state === IN_WORD && (unit === 0x27 || unit === 0x2019 || unit === 0x2d)) {
      this.state = AFTER_JOINER; // ' ’ -
    } else {
      this.state = OUTSIDE;
      if (unit >= 0xd800 && unit <= 0xdfff) this.sawSurrogate = true;
    }
  }

  /** The count for `text`, the whole text that was pushed (or text with the same words). */
  total(text: string): number {
    return this.sawSurrogate ? (text.match(WORD)?.length ?? 0) : this.count;
  }
}

export function countWords(text: string): number {
  const counter = new WordCounter();
  for (let i = 0; i < text.length; i++) counter.push(text.charCodeAt(i));
  return counter.total(text);
}
