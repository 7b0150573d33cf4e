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

/**
 * A book's first published chapter in reading order among the window's: what its match is read
 * from (its title, and its HTML for the snippet).
 */
export interface MatchingChapter {
  book_id: number;
  id: number;
  title: string;
  content: string;
}

/** The page's books, and the chapter window they were ranked with (read once). */
export type RankWithWindow = (
  q: string,
  page: SearchPage,
  order?: SearchOrder,
) => Promise<{ bookIds: number[]; window: WindowMatch[] }>;

/**
 * For each of `bookIds` still published, its first chapter in reading order among `chapterIds`
 * that is still published, with its title and HTML: the engine's own query, by its own index
 * (no text is matched again), in one statement, reading the HTML of those chapters only.
 * `chapterIds` belong to those books and alone decide the answer; `bookIds` lets an engine seek an
 * index by book (SQLite's chapter list).
 */
export type ReadFirstMatching = (
  bookIds: readonly number[],
  chapterIds: number[],
) => Promise<MatchingChapter[]>;

/** An engine's two search calls, from its ranking and its reading of the window's chapters. */
export function windowSearch(
  rank: RankWithWindow,
  readFirstMatching: ReadFirstMatching,
): Pick<SearchEngine, 'searchBookIds' | 'searchWithMatches'> {
  return {
    async searchBookIds(q, page, order) {
      return (await rank(q, page, order)).bookIds;
    },
    async searchWithMatches(q, page, order) {
      const { bookIds, window } = await rank(q, page, order);
      const onPage = new Set(bookIds);
      const chapterIds = window.filter((w) => onPage.has(w.book_id)).map((w) => w.chapter_id);
      const first = chapterIds.length === 0 ? [] : await readFirstMatching(bookIds, chapterIds);
      return { bookIds, matchingChapters: new Map(first.map((c) => [c.book_id, c])) };
    },
  };
}
