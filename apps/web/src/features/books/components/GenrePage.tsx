import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { CoverGrid } from '../../../components/CoverGrid.tsx';
import { PageTitle } from '../../../components/Page.tsx';
import { Loading, Status } from '../../../components/Status.tsx';
import { paths } from '../../../lib/paths.ts';
import { genreBooksQuery } from '../api/books.ts';

export function GenrePage() {
  const genre = useParams().genre ?? '';
  const books = useQuery(genreBooksQuery(genre));
  return (
    <div className="page">
      <p className="breadcrumb">
        <Link to={paths.genres}>Genres</Link>
      </p>
      <PageTitle>{genre}</PageTitle>
      {books.isPending && <Loading />}
      {books.isError && <Status kind="error">Could not load the books of this genre.</Status>}
      {books.data?.length === 0 && <Status kind="empty">No books in {genre} yet.</Status>}
      {books.data && books.data.length > 0 && (
        <CoverGrid
          label={`${genre} books`}
          items={books.data.map((b) => ({
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
