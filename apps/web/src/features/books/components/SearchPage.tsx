import type { SearchHit } from '@inkwell/contract';
import { normalizeSearchText } from '@inkwell/contract/search-text';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { ALL_HIDDEN_TEXT, FilteredNotice } from '../../../components/FilteredNotice.tsx';
import { InfiniteList } from '../../../components/InfiniteList.tsx';
import { PageTitle } from '../../../components/Page.tsx';
import { Snippet } from '../../../components/SafeHtml.tsx';
import { LoadError, Loading, Status } from '../../../components/Status.tsx';
import { plural } from '../../../lib/format.ts';
import { paths } from '../../../lib/paths.ts';
import { filteredPages, searchQuery } from '../api/books.ts';
import { listErrorText, useListFilter } from '../useListFilter.ts';
import { BookCard } from './BookCard.tsx';
import { FilterPanel } from './FilterPanel.tsx';

export const noMatchSentence = (query: string) =>
  `Your search — ${query} — did not match any books.`;

/** '1 result', '20 results', or '20+ results' while more can be loaded. */
export const resultCount = (loaded: number, more: boolean) =>
  more ? `${loaded}+ results` : plural(loaded, 'result', 'results');

/**
 * Why a hit matched (issue 21): the passage with the searched words marked and, when it is a
 * chapter's, a link to that chapter at that paragraph. The server sends no passage (and no
 * paragraph) when its stemmer matched a form it could not find again: then only the chapter.
 */
export function MatchPassage({ hit }: { hit: SearchHit }) {
  const match = hit.match;
  if (!match) return null;
  const chapter = match.chapter_id;
  const to =
    chapter === null
      ? null
      : match.paragraph === null
        ? paths.chapter(hit.id, chapter)
        : paths.chapterAt(hit.id, chapter, match.paragraph);
  const title = match.chapter_title ?? hit.title;
  return (
    <div className="search-match">
      {match.snippet && (
        <p className="search-snippet">
          <Snippet html={match.snippet} />
        </p>
      )}
      {to && (
        <p className="search-match-link">
          <Link to={to}>
            {match.snippet ? <>Read the passage in “{title}”</> : <>Found in “{title}”</>}
          </Link>
        </p>
      )}
    </div>
  );
}

export function SearchPage() {
  const [params] = useSearchParams();
  // The query the API searches for (it normalizes the same way), so the page names what it shows.
  const q = normalizeSearchText(params.getAll('q')).trim();
  const filter = useListFilter('search');
  const results = useInfiniteQuery(searchQuery(q, filter.query));
  const { items: books, hidden } = filteredPages(results.data?.pages);

  return (
    <div className="page">
      <PageTitle title={q ? `Search: ${q}` : 'Search'}>
        {q ? <>Results for “{q}”</> : 'Search'}
      </PageTitle>
      {!q && (
        <Status>Type a title, an author or a few words from a story in the search box.</Status>
      )}
      {q && <FilterPanel scope="search" />}
      {q && results.isPending && <Loading />}
      {q && results.isError && !results.data && (
        // A failed search reads as no match (SPEC section 8) but is not one: it can be asked again.
        <LoadError onRetry={() => void results.refetch()}>
          {filter.query ? listErrorText(results.error, 'the results') : noMatchSentence(q)}
        </LoadError>
      )}
      {results.data && <FilteredNotice hidden={hidden} />}
      {results.data &&
        (books.length === 0 ? (
          <Status kind="empty">{hidden ? ALL_HIDDEN_TEXT : noMatchSentence(q)}</Status>
        ) : (
          <>
            <p className="result-count" role="status">
              {resultCount(books.length, results.hasNextPage)}
            </p>
            <InfiniteList
              className="book-list"
              label="Search results"
              items={books}
              getKey={(book) => book.id}
              render={(book) => (
                <BookCard book={book} showGenres showReadNow={false}>
                  <MatchPassage hit={book} />
                </BookCard>
              )}
              hasMore={results.hasNextPage}
              loading={results.isFetchingNextPage}
              failed={results.isFetchNextPageError}
              onLoadMore={() => void results.fetchNextPage()}
              moreLabel="Load more results"
            />
          </>
        ))}
      {results.isFetchNextPageError && <Status kind="error">Could not load more results.</Status>}
    </div>
  );
}
