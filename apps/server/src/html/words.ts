/** Words as the whole product counts them (word_count, the editor's live count): see WORD. */
const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

/** What a UTF-16 code unit is to WORD (0: nothing). Matched by WORD's [\p{L}\p{N}]: */
const LETTER = 1;
/** ' ’ -: joins two runs of letters into one word. */
const JOINER = 2;
/** Half of a surrogate pair: text with any is counted by the expression itself. */
const SURROGATE = 3;

let unitClasses: Uint8Array | undefined;
function unitClassTable(): Uint8Array {
  if (!unitClasses) {
    const letterOrDigit = /[\p{L}\p{N}]/u;
    unitClasses = new Uint8Array(0x10000);
    for (let unit = 0; unit < 0x10000; unit++) {
      if (unit >= 0xd800 && unit <= 0xdfff) unitClasses[unit] = SURROGATE;
      else if (letterOrDigit.test(String.fromCharCode(unit))) unitClasses[unit] = LETTER;
      else if (unit === 0x27 || unit === 0x2019 || unit === 0x2d) unitClasses[unit] = JOINER;
    }
  }
  return unitClasses;
}

/** States: outside a word, in one, just after a joiner that follows one (a letter continues it). */
const OUTSIDE = 0;
const IN_WORD = 1;
const AFTER_JOINER = 2;

/** The next state, by `state << 2 | class`. */
// prettier-ignore
const NEXT_STATE = new Uint8Array([
  /* OUTSIDE */      OUTSIDE, IN_WORD, OUTSIDE,      OUTSIDE,
  /* IN_WORD */      OUTSIDE, IN_WORD, AFTER_JOINER, OUTSIDE,
  /* AFTER_JOINER */ OUTSIDE, IN_WORD, OUTSIDE,      OUTSIDE,
]);
/** 1 where the unit starts a word, by `state << 2 | class`. */
// prettier-ignore
const STARTS_WORD = new Uint8Array([
  0, 1, 0, 0,
  0, 0, 0, 0,
  0, 0, 0, 0,
]);

/**
 * Counts WORD matches one UTF-16 unit at a time, so that a pass that reads text for another
 * reason (the canonical HTML reader) counts its words on the way instead of scanning it again.
 * A state machine over lookup tables, without a branch per unit, is several times faster than
 * the regular expression; text with characters beyond the Basic Multilingual Plane (surrogate
 * pairs) is counted by the expression.
 */
export class WordCounter {
  private readonly classes = unitClassTable();
  private state = OUTSIDE;
  private count = 0;
  private sawSurrogate = 0;

  /** Pushes text[start, end). The state lives in locals for the loop. */
  pushRange(text: string, start: number, end: number): void {
    const classes = this.classes;
    let state = this.state;
    let count = this.count;
    let surrogate = 0;
    for (let i = start; i < end; i++) {
      const unitClass = classes[text.charCodeAt(i)]!;
      const key = (state << 2) | unitClass;
      count += STARTS_WORD[key]!;
      state = NEXT_STATE[key]!;
      surrogate |= unitClass & (unitClass >> 1); // 1 for SURROGATE only
    }
    this.state = state;
    this.count = count;
    this.sawSurrogate |= surrogate;
  }

  /** The count for `text`, the whole text that was pushed (or text with the same words). */
  total(text: string): number {
    return this.sawSurrogate ? (text.match(WORD)?.length ?? 0) : this.count;
  }
}

export function countWords(text: string): number {
  const counter = new WordCounter();
  counter.pushRange(text, 0, text.length);
  return counter.total(text);
}
