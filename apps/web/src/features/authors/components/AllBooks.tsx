import { useQuery } from '@tanstack/react-query';
import { CoverGrid } from '../../../components/CoverGrid.tsx';
import { ALL_HIDDEN_TEXT, FilteredNotice } from '../../../components/FilteredNotice.tsx';
import { Loading, Status } from '../../../components/Status.tsx';
import { useFiltersOff } from '../../../lib/filtered.ts';
import { paths } from '../../../lib/paths.ts';
import { authorBooksQuery } from '../api/authors.ts';
import { useProfileAuthor } from './AuthorPage.tsx';

export function AllBooks() {
  const author = useProfileAuthor();
  const [filtersOff] = useFiltersOff();
  const books = useQuery(authorBooksQuery(author.id, filtersOff));
  const items = books.data?.items;
  return (
    <section aria-labelledby="all-books-title">
      <h2 id="all-books-title" className="visually-hidden">
        All Books
      </h2>
      {books.isPending && <Loading />}
      {books.isError && <Status kind="error">Could not load the books.</Status>}
      {books.data && <FilteredNotice hidden={books.data.hidden} />}
      {items?.length === 0 && (
        <Status kind="empty">
          {books.data?.hidden ? ALL_HIDDEN_TEXT : 'No books published yet.'}
        </Status>
      )}
      {items && items.length > 0 && (
        <CoverGrid
          label={`Books by ${author.username}`}
          items={items.map((b) => ({
            id: b.id,
            title: b.title,
            cover: b.cover,
            href: paths.book(b.id),
          }))}
        />
      )}
    </section>
  );
}
