/**
 * The search's chapter window (decision 0031): the newest published chapters matching a query,
 * found by each engine in its own way. Its books rank the hits; its chapters say why a book
 * matched. What the engines do alike with it lives here.
 */
import type { SearchEngine } from './search-engine.ts';
import type { SearchOrder, SearchPage } from './search.repository.ts';

/** A chapter of the window, with its book. */
export interface WindowMatch {
  chapter_id: number;
  book_id: number;
}

/** A published chapter of the window, as an engine reads it back for `firstInReadingOrder`. */
export interface WindowChapter {
  book_id: number;
  id: number;
}

/** The page's books, and the chapter window they were ranked with (read once). */
export type RankWithWindow = (
  q: string,
  page: SearchPage,
  order?: SearchOrder,
) => Promise<{ bookIds: number[]; window: WindowMatch[] }>;

/**
 * Reads the given chapters of the given books that are still published, in reading order within
 * each book: the engine's own query (by its own index; no text is read again).
 */
export type ReadInOrder = (
  bookIds: readonly number[],
  chapterIds: number[],
) => Promise<WindowChapter[]>;

/** An engine's two search calls, from its ranking and its reading of the window's chapters. */
export function windowSearch(
  rank: RankWithWindow,
  readInOrder: ReadInOrder,
): Pick<SearchEngine, 'searchBookIds' | 'searchWithMatches'> {
  return {
    async searchBookIds(q, page, order) {
      return (await rank(q, page, order)).bookIds;
    },
    async searchWithMatches(q, page, order) {
      const { bookIds, window } = await rank(q, page, order);
      return { bookIds, matchingChapters: await firstInReadingOrder(bookIds, window, readInOrder) };
    },
  };
}

/** For each of `bookIds`, its first chapter in reading order among the window's. */
async function firstInReadingOrder(
  bookIds: readonly number[],
  window: readonly WindowMatch[],
  readInOrder: ReadInOrder,
): Promise<Map<number, number>> {
  const onPage = new Set(bookIds);
  const chapterIds = window.filter((w) => onPage.has(w.book_id)).map((w) => w.chapter_id);
  const found = new Map<number, number>();
  if (chapterIds.length === 0) return found;
  for (const row of await readInOrder(bookIds, chapterIds))
    if (!found.has(row.book_id)) found.set(row.book_id, row.id);
  return found;
}
