import { normalizeSearchText } from '@inkwell/contract/search-text';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { InfiniteList } from '../../../components/InfiniteList.tsx';
import { PageTitle } from '../../../components/Page.tsx';
import { Loading, Status } from '../../../components/Status.tsx';
import { plural } from '../../../lib/format.ts';
import { searchQuery } from '../api/books.ts';
import { BookCard } from './BookCard.tsx';

export const noMatchSentence = (query: string) =>
  `Your search — ${query} — did not match any books.`;

/** '1 result', '20 results', or '20+ results' while more can be loaded. */
export const resultCount = (loaded: number, more: boolean) =>
  more ? `${loaded}+ results` : plural(loaded, 'result', 'results');

export function SearchPage() {
  const [params] = useSearchParams();
  // The query the API searches for (it normalizes the same way), so the page names what it shows.
  const q = normalizeSearchText(params.getAll('q')).trim();
  const results = useInfiniteQuery(searchQuery(q));
  const books = results.data?.pages.flat() ?? [];

  return (
    <div className="page">
      <PageTitle title={q ? `Search: ${q}` : 'Search'}>
        {q ? <>Results for “{q}”</> : 'Search'}
      </PageTitle>
      {!q && (
        <Status>Type a title, an author or a few words from a story in the search box.</Status>
      )}
      {q && results.isPending && <Loading />}
      {results.data &&
        (books.length === 0 ? (
          <Status kind="empty">{noMatchSentence(q)}</Status>
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
              render={(book) => <BookCard book={book} showGenres showReadNow={false} />}
              hasMore={results.hasNextPage}
              loading={results.isFetchingNextPage}
              onLoadMore={() => void results.fetchNextPage()}
              moreLabel="Load more results"
            />
          </>
        ))}
      {results.isFetchNextPageError && <Status kind="error">Could not load more results.</Status>}
    </div>
  );
}
