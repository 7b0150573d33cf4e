import type {
  BookFilter,
  SearchHit,
  SearchMatch,
  SearchResponse,
  SearchSort,
} from '@inkwell/contract';
import { HIDDEN_COUNT_MAX } from '@inkwell/contract/constants';
import {
  hasExclusions,
  hiddenCondition,
  listCondition,
  type ListFilter,
} from '../../access/book-filters.ts';
import type { ReadContext, Viewer } from '../../context.ts';
import { searchSnippet } from '../../html/snippet.ts';
import type { Stemmer } from '../../html/word-folding.ts';
import { listVisibleBooks } from '../books/books.service.ts';
import { listFilterFor } from '../discovery/discovery.service.ts';
import type { MatchingChapter } from './chapter-window.ts';
import { parseSearchQuery } from './search-query.ts';
import type { SearchPage } from './search.repository.ts';

/**
 * Ranked full-text search with the list filters; any input answers a (possibly empty) list,
 * never an error. Each hit says why it matched (issue 21): the first chapter in reading order
 * whose text matched, at the block that holds a matched word.
 */
export async function searchBooks(
  ctx: ReadContext,
  viewer: Viewer | null,
  query: BookFilter & SearchPage & { q: string; sort: SearchSort },
): Promise<SearchResponse> {
  const list = await listFilterFor(ctx, viewer, query);
  const { bookIds: ids, matchingChapters } = await ctx.search.searchWithMatches(query.q, query, {
    where: (books) => listCondition(list, books),
    sort: query.sort,
  });
  // The cards are the visitors' (published books only), whoever asks.
  const cards = await listVisibleBooks(ctx, null, ids);
  const matches = matchesOf(query.q, matchingChapters, ctx.search.stem);
  const books: SearchHit[] = cards.map((card) => ({
    ...card,
    match: matches.get(card.id) ?? null,
  }));
  // The whole search's count, said on the first page only (as the lists: books.service.ts).
  const hidden = query.offset > 0 ? 0 : await hiddenCount(ctx, query.q, list);
  return { books, hidden };
}

/** Books the saved exclusions removed from the whole search (not only this page). */
async function hiddenCount(ctx: ReadContext, q: string, list: ListFilter): Promise<number> {
  if (!hasExclusions(list.exclusions)) return 0;
  const hidden = await ctx.search.searchBookIds(
    q,
    { limit: HIDDEN_COUNT_MAX, offset: 0 },
    { where: (books) => hiddenCondition(list, books) },
  );
  return hidden.length;
}

/** Each book's match: its matching chapter's title and the snippet at the first matched word. */
function matchesOf(
  q: string,
  chapterOf: ReadonlyMap<number, MatchingChapter>,
  stem: Stemmer,
): Map<number, SearchMatch> {
  const { loose, phrases } = parseSearchQuery(q);
  const terms = [...loose, ...phrases.flatMap((p) => p.terms)];
  const matches = new Map<number, SearchMatch>();
  for (const [bookId, chapter] of chapterOf) {
    const found = searchSnippet(chapter.content, terms, stem);
    matches.set(bookId, {
      chapter_id: chapter.id,
      chapter_title: chapter.title,
      paragraph: found?.paragraph ?? null,
      snippet: found?.snippet ?? '',
    });
  }
  return matches;
}
