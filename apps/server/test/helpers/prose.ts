/**
 * Chapter text with the word frequencies of real prose, for tests that need a library whose
 * search statistics look like a real one: a few words in every chapter, a long tail of words in
 * a handful. Words are drawn from a Zipf distribution (exponent about 1, as in English) over
 * English function words followed by made-up content words; the same seed gives the same text.
 */
import { seededRandom } from '../reliability/helpers/fuzz.ts';

const FUNCTION_WORDS = (
  'the of and to a in that he was it his her i she had with as for on at by not be ' +
  'but from they you all have my him were which this me their or one so an said there ' +
  'would when what we them been no if are more could will into some out up then do ' +
  'than who now only little very upon about any time like can other its before over'
).split(' ');

const SYLLABLES = (
  'ka lo mi ren tha vor el sa dun bri ost wen ca lum fer ash gol pri nes tor ul ve ' +
  'bar cin del fro gar hel ith jor kel mar nor pel quin ros sil tam und vel wyn yar zel'
).split(' ');

export interface Prose {
  /** Words by rank: index 0 is the most frequent. */
  vocabulary: string[];
  /** A paragraph-structured text of about `words` words. */
  chapter(words: number): { html: string; text: string };
}

export function prose(seed: number, contentWords = 20_000): Prose {
  const random = seededRandom(seed);
  const made = new Set<string>();
  while (made.size < contentWords) {
    const length = 2 + Math.floor(random() * 3);
    let word = '';
    for (let i = 0; i < length; i++) word += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    if (!FUNCTION_WORDS.includes(word)) made.add(word);
  }
  const vocabulary = [...FUNCTION_WORDS, ...made];
  // Cumulative Zipf weights 1/rank, searched by bisection for each word drawn.
  const cumulative: number[] = [];
  let total = 0;
  for (let rank = 1; rank <= vocabulary.length; rank++) cumulative.push((total += 1 / rank));
  const draw = () => {
    const target = random() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (cumulative[mid]! < target) low = mid + 1;
      else high = mid;
    }
    return vocabulary[low]!;
  };
  return {
    vocabulary,
    chapter(words) {
      const paragraphs: string[] = [];
      let written = 0;
      while (written < words) {
        const sentences: string[] = [];
        const count = 2 + Math.floor(random() * 5);
        for (let s = 0; s < count; s++) {
          const length = 6 + Math.floor(random() * 14);
          const sentence = Array.from({ length }, draw).join(' ');
          sentences.push(`${sentence[0]!.toUpperCase()}${sentence.slice(1)}.`);
          written += length;
        }
        paragraphs.push(sentences.join(' '));
      }
      return {
        html: paragraphs.map((p) => `<p>${p}</p>`).join(''),
        text: paragraphs.join('\n'),
      };
    },
  };
}
