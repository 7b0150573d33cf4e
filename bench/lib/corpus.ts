import fs from 'node:fs';
import path from 'node:path';
import yauzl from 'yauzl';

/** A paragraph of plain text and its word count (counted once, summed per chapter). */
export interface Paragraph {
  text: string;
  words: number;
}

export interface Corpus {
  /** Where the text came from: the EPUB titles, or "generated". */
  source: string[];
  /** Each book's body paragraphs in reading order; chapters are runs of consecutive paragraphs. */
  books: Paragraph[][];
}

/**
 * The optional corpus (README, "Optional real books"): public-domain EPUBs listed in a
 * `books.json`. `INKWELL_CORPUS_DIR` names its folder; by default `shared/corpus` beside the
 * checkout. Everything that reads it works without it (generated English, skipped tests).
 */
export const CORPUS_DIR = path.resolve(
  process.env.INKWELL_CORPUS_DIR ?? path.join(import.meta.dirname, '../../../shared/corpus'),
);

const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;
export const countWords = (text: string) => text.match(WORD)?.length ?? 0;

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

function plain(html: string): string {
  return (
    html
      .replace(/<[^>]+>/g, '')
      .replace(/&(#x?[0-9a-f]+|\w+);/gi, (entity, name: string) => {
        if (name.startsWith('#x') || name.startsWith('#X'))
          return String.fromCodePoint(parseInt(name.slice(2), 16));
        if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10));
        return ENTITIES[name] ?? entity;
      })
      // Standard Ebooks puts word joiners around dashes; they are invisible noise for search.
      .replace(/\u2060/g, '')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/** The text files of an EPUB (a zip), read with yauzl: name -> content. */
function readZipTexts(file: string): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error(`cannot open ${file}`));
      const texts = new Map<string, string>();
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!/\.(xhtml|html|opf|xml)$/i.test(entry.fileName)) return zip.readEntry();
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError ?? new Error(entry.fileName));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            texts.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
            zip.readEntry();
          });
          stream.on('error', reject);
        });
      });
      zip.on('end', () => resolve(texts));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** Body paragraphs of one EPUB, in spine order; front and back matter are left out. */
async function epubParagraphs(file: string): Promise<Paragraph[]> {
  const texts = await readZipTexts(file);
  const opfName = [...texts.keys()].find((name) => name.endsWith('.opf'));
  const opf = opfName ? texts.get(opfName)! : '';
  const base = opfName ? path.posix.dirname(opfName) : '';
  const hrefById = new Map(
    [...opf.matchAll(/<item\b[^>]*\bid="([^"]+)"[^>]*\bhref="([^"]+)"/g)].map((m) => [
      m[1]!,
      m[2]!,
    ]),
  );
  const spine = [...opf.matchAll(/<itemref\b[^>]*\bidref="([^"]+)"/g)]
    .map((m) => hrefById.get(m[1]!))
    .filter((href): href is string => href !== undefined)
    .map((href) => path.posix.join(base, href));
  const order =
    spine.length > 0 ? spine : [...texts.keys()].filter((n) => /\.x?html$/i.test(n)).sort();
  const paragraphs: Paragraph[] = [];
  for (const name of order) {
    const html = texts.get(name);
    if (!html || !/bodymatter/.test(html)) continue;
    for (const match of html.matchAll(/<p\b[^>]*>([\s\S]*?)<\/p>/g)) {
      const text = plain(match[1]!);
      const words = countWords(text);
      if (words >= 3) paragraphs.push({ text, words });
    }
  }
  return paragraphs;
}

/** Plausible English when there is no corpus: sentences from a fixed vocabulary, deterministic. */
function generatedBook(random: () => number, paragraphs: number): Paragraph[] {
  const subjects = [
    'the captain',
    'she',
    'he',
    'the old woman',
    'my brother',
    'the stranger',
    'our guide',
    'the children',
    'the king',
    'a soldier',
  ];
  const verbs = [
    'walked toward',
    'looked at',
    'spoke of',
    'remembered',
    'feared',
    'followed',
    'waited beside',
    'wrote to',
    'dreamed of',
    'turned from',
  ];
  const objects = [
    'the river',
    'the house on the hill',
    'a letter',
    'the dark forest',
    'the harbour',
    'her mother',
    'the silent city',
    'an open window',
    'the garden',
    'the northern road',
  ];
  const tails = [
    'before the rain began',
    'as the night came on',
    'without a word',
    'with a heavy heart',
    'in the grey morning',
    'for the last time',
    'while the others slept',
    'and said nothing more',
  ];
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  const book: Paragraph[] = [];
  for (let p = 0; p < paragraphs; p++) {
    const sentences: string[] = [];
    const n = 3 + Math.floor(random() * 6);
    for (let s = 0; s < n; s++) {
      const sentence = `${pick(subjects)} ${pick(verbs)} ${pick(objects)} ${pick(tails)}.`;
      sentences.push(sentence[0]!.toUpperCase() + sentence.slice(1));
    }
    const text = sentences.join(' ');
    book.push({ text, words: countWords(text) });
  }
  return book;
}

/** The EPUBs of the optional corpus when present, else generated English. */
export async function loadCorpus(random: () => number, dir = CORPUS_DIR): Promise<Corpus> {
  const files = fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.epub'))
        .sort()
    : [];
  const books: Paragraph[][] = [];
  const source: string[] = [];
  for (const file of files) {
    const paragraphs = await epubParagraphs(path.join(dir, file));
    if (paragraphs.length < 100) continue;
    books.push(paragraphs);
    source.push(file.replace(/\.epub$/, ''));
  }
  if (books.length === 0) {
    for (let i = 0; i < 4; i++) books.push(generatedBook(random, 3000));
    source.push('generated');
  }
  return { source, books };
}
