import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { CoverGrid } from '../../../components/CoverGrid.tsx';
import { ALL_HIDDEN_TEXT, FilteredNotice } from '../../../components/FilteredNotice.tsx';
import { PageTitle } from '../../../components/Page.tsx';
import { Loading, Status } from '../../../components/Status.tsx';
import { paths } from '../../../lib/paths.ts';
import { genreBooksQuery } from '../api/books.ts';
import { listErrorText, useListFilter } from '../useListFilter.ts';
import { FilterPanel } from './FilterPanel.tsx';

export function GenrePage() {
  const genre = useParams().genre ?? '';
  const filter = useListFilter('genre');
  const books = useQuery(genreBooksQuery(genre, filter.query));
  const items = books.data?.items;
  return (
    <div className="page">
      <p className="breadcrumb">
        <Link to={paths.genres}>Genres</Link>
      </p>
      <PageTitle>{genre}</PageTitle>
      <FilterPanel scope="genre" />
      {books.isPending && <Loading />}
      {books.isError && (
        <Status kind="error">{listErrorText(books.error, 'the books of this genre')}</Status>
      )}
      {books.data && <FilteredNotice hidden={books.data.hidden} />}
      {items?.length === 0 && (
        <Status kind="empty">
          {filter.narrowed
            ? `No books in ${genre} match these filters.`
            : books.data?.hidden
              ? ALL_HIDDEN_TEXT
              : `No books in ${genre} yet.`}
        </Status>
      )}
      {items && items.length > 0 && (
        <CoverGrid
          label={`${genre} books`}
          items={items.map((b) => ({
            id: b.id,
            title: b.title,
            cover: b.cover,
            href: paths.book(b.id),
          }))}
        />
      )}
    </div>
  );
}
