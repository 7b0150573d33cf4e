import { tokenFor, type DatasetInfo } from '../lib/dataset.ts';
import type { MixedRequest } from '../lib/mixed-load.ts';
import type { SearchQueries } from '../lib/queries.ts';
import { seededRandom, shuffle } from '../lib/random.ts';
import { zipfSampler } from '../lib/zipf.ts';

/**
 * The share of each kind of call in the mix (issue 22 §5): an average day of a fiction site,
 * where most calls read a chapter of a popular serial.
 */
export const MIX = [
  { kind: 'chapter read', share: 70 },
  { kind: 'book page', share: 10 },
  { kind: 'list', share: 10 },
  { kind: 'search', share: 5 },
  { kind: 'history record', share: 2 },
  { kind: 'progress save', share: 2 },
  { kind: 'autosave', share: 1 },
] as const;

type Kind = (typeof MIX)[number]['kind'];

/** Zipf exponents: books by popularity, and chapters within a book (readers drop off). */
const BOOK_SKEW = 1.0;
const CHAPTER_SKEW = 0.8;
const QUERY_SKEW = 1.0;
const PAGE_SKEW = 1.5;

/** What every browser sends with an API call (Chromium's fetch): answers may come compressed. */
const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br, zstd', accept: '*/*' };

export interface MixInputs {
  info: DatasetInfo;
  /** Searches, a few hundred of them so that the Zipf ranking has a long tail. */
  queries: SearchQueries;
  /** Genre names, for the genre lists. */
  genres: string[];
  /** Draft chapters the authors autosave, one each. */
  drafts: Array<{ id: number; bookId: number; chapterId: number }>;
  /** The 16 KB of editor HTML an autosave sends. */
  autosaveHtml: string;
  /** Signed-in readers to spread the private calls over. */
  readers: number;
}

/**
 * The request for the nth call of the mix. Books are ranked by a seeded shuffle (popularity does
 * not follow ids), chapters by their order in the book; both Zipf-distributed, so the answer cache
 * meets a few hot answers and a long tail it has never seen. Searches come from a list of common
 * words, rare words and phrases, also Zipf-ranked.
 */
export function mixedRequests(inputs: MixInputs): (sequence: number) => MixedRequest {
  const random = seededRandom(22);
  const books = shuffle(random, [...inputs.info.publishedBooks]);
  const pickBook = zipfSampler(books.length, BOOK_SKEW, random);
  const chapterPickers = new Map<number, () => number>();
  const pickChapter = (book: (typeof books)[number]) => {
    let picker = chapterPickers.get(book.publishedChapters);
    if (!picker) {
      picker = zipfSampler(book.publishedChapters, CHAPTER_SKEW, random);
      chapterPickers.set(book.publishedChapters, picker);
    }
    return book.firstChapter + picker();
  };
  const queries = shuffle(random, [
    ...inputs.queries.common,
    ...inputs.queries.rare,
    ...inputs.queries.phrase,
  ]);
  const pickQuery = zipfSampler(queries.length, QUERY_SKEW, random);
  const pages = Math.max(1, Math.floor(books.length / 10));
  const pickPage = zipfSampler(pages, PAGE_SKEW, random);
  const kinds: Kind[] = MIX.flatMap(({ kind, share }) => Array<Kind>(share).fill(kind));
  const readerToken = () =>
    tokenFor(
      inputs.info.tokenSeed,
      inputs.info.followersFrom + Math.floor(random() * inputs.readers),
    );
  const signedIn = (token: string, body?: unknown) => ({
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });

  const make: Record<Kind, (sequence: number) => MixedRequest> = {
    'chapter read': () => {
      const book = books[pickBook()]!;
      return { kind: 'chapter read', path: `/api/chapters/${pickChapter(book)}` };
    },
    // A book page asks for the book and its chapter list.
    'book page': (sequence) => {
      const book = books[pickBook()]!;
      const path = sequence % 2 ? `/api/books/${book.id}` : `/api/books/${book.id}/chapters`;
      return { kind: 'book page', path };
    },
    list: (sequence) => {
      const which = sequence % 4;
      const path =
        which === 0
          ? `/api/books?limit=10&offset=${pickPage() * 10}`
          : which === 1
            ? '/api/popular/books'
            : which === 2
              ? '/api/recent/books'
              : `/api/books/genres/${encodeURIComponent(inputs.genres[Math.floor(random() * inputs.genres.length)]!)}`;
      return { kind: 'list', path };
    },
    search: () => ({
      kind: 'search',
      path: `/api/books/search?q=${encodeURIComponent(queries[pickQuery()]!)}`,
    }),
    // A reader's first visit to a chapter records it; a visit already recorded answers 409.
    'history record': () => {
      const book = books[pickBook()]!;
      return {
        kind: 'history record',
        method: 'POST',
        path: `/api/books/${book.id}/chapters/${pickChapter(book)}/history`,
        alsoFine: [409],
        ...signedIn(readerToken()),
      };
    },
    'progress save': () => {
      const book = books[pickBook()]!;
      return {
        kind: 'progress save',
        method: 'PUT',
        path: `/api/my/progress/${book.id}`,
        ...signedIn(readerToken(), {
          chapter_id: pickChapter(book),
          paragraph: Math.floor(random() * 40),
          offset: 0,
        }),
      };
    },
    autosave: (sequence) => {
      const draft = inputs.drafts[sequence % inputs.drafts.length]!;
      return {
        kind: 'autosave',
        method: 'PUT',
        path: `/api/books/${draft.bookId}/chapters/${draft.chapterId}`,
        // Every save differs from the last, as typing makes it.
        ...signedIn(tokenFor(inputs.info.tokenSeed, draft.id), {
          content: `<p>Save ${sequence}.</p>${inputs.autosaveHtml}`,
        }),
      };
    },
  };
  return (sequence) => {
    const request = make[kinds[Math.floor(random() * kinds.length)]!](sequence);
    return { ...request, headers: { ...BROWSER_HEADERS, ...request.headers } };
  };
}
