import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { PageTitle } from '../../../components/Page.tsx';
import { Loading, Status } from '../../../components/Status.tsx';
import { plural } from '../../../lib/format.ts';
import { searchQuery } from '../api/books.ts';
import { BookCard } from './BookCard.tsx';

export const noMatchSentence = (query: string) =>
  `Your search — ${query} — did not match any books.`;

export function SearchPage() {
  const [params] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  const results = useQuery(searchQuery(q));

  return (
    <div className="page">
      <PageTitle title={q ? `Search: ${q}` : 'Search'}>
        {q ? <>Results for “{q}”</> : 'Search'}
      </PageTitle>
      {!q && (
        <Status>Type a title, an author or a few words from a story in the search box.</Status>
      )}
      {q && results.isPending && <Loading />}
      {results.data && (
        <>
          {results.data.length === 0 ? (
            <Status kind="empty">{noMatchSentence(q)}</Status>
          ) : (
            <p className="result-count" role="status">
              {plural(results.data.length, 'result', 'results')}
            </p>
          )}
          <ul className="book-list" aria-label="Search results">
            {results.data.map((book) => (
              <li key={book.id}>
                <BookCard book={book} showGenres showReadNow={false} />
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
