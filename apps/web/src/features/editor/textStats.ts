/** The same word rule as the server's countWords, so the live count matches the stored word_count. */
const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

/** An unhurried reading pace for fiction, in words per minute. */
const READING_WORDS_PER_MINUTE = 230;

export function countWords(text: string): number {
  let count = 0;
  for (const _ of text.matchAll(WORD)) count++;
  return count;
}

export const readingMinutes = (words: number): number =>
  words === 0 ? 0 : Math.max(1, Math.round(words / READING_WORDS_PER_MINUTE));

export function describeLength(words: number): string {
  const minutes = readingMinutes(words);
  const wordText = `${words.toLocaleString()} ${words === 1 ? 'word' : 'words'}`;
  return minutes === 0 ? wordText : `${wordText} · ${minutes} min read`;
}
