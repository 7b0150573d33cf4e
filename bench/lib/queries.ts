import type { Corpus } from './corpus.ts';
import { seededRandom } from './random.ts';

export interface SearchQueries {
  /** Words found in most chapters. */
  common: string[];
  /** Words seen only a couple of times in the whole corpus. */
  rare: string[];
  /** Two- or three-word phrases lifted from the text, in quotes. */
  phrase: string[];
}

// Words that every chapter holds carry no meaning for a reader's query; "common" starts after them.
const SKIP_MOST_FREQUENT = 60;

/** Search queries drawn from the same corpus the dataset was made of, the same for every run. */
export function searchQueries(corpus: Corpus, count = 20): SearchQueries {
  const random = seededRandom(42);
  const frequency = new Map<string, number>();
  for (const book of corpus.books)
    for (const paragraph of book)
      for (const word of paragraph.text.toLowerCase().match(/\p{L}+/gu) ?? [])
        frequency.set(word, (frequency.get(word) ?? 0) + 1);
  const byFrequency = [...frequency.entries()]
    .filter(([w]) => w.length >= 4)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  // A small vocabulary (the generated English) skips fewer, so that some words are left.
  const skip = Math.min(SKIP_MOST_FREQUENT, Math.floor(byFrequency.length / 3));
  const common = byFrequency.slice(skip, skip + count).map(([w]) => w);
  const seenTwice = byFrequency.filter(([w, n]) => n === 2 && w.length >= 7 && /^[a-z]+$/.test(w));
  // The generated English used without the optional corpus has a small vocabulary, every word of it
  // frequent: its rarest words stand in.
  const rareCandidates =
    seenTwice.length >= count ? seenTwice : byFrequency.slice(-Math.max(count, 1) * 5);
  const rare = Array.from(
    { length: count },
    () => rareCandidates[Math.floor(random() * rareCandidates.length)]![0],
  );
  const phrase: string[] = [];
  while (phrase.length < count) {
    const book = corpus.books[Math.floor(random() * corpus.books.length)]!;
    const words = book[Math.floor(random() * book.length)]!.text.match(/\p{L}+/gu) ?? [];
    const length = 2 + Math.floor(random() * 2);
    if (words.length < length + 1) continue;
    const start = Math.floor(random() * (words.length - length));
    const picked = words.slice(start, start + length);
    if (picked.some((w) => w.length < 3)) continue;
    phrase.push(`"${picked.join(' ')}"`);
  }
  return { common, rare, phrase };
}
