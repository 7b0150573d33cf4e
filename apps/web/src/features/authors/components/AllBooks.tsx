import { useQuery } from '@tanstack/react-query';
import { CoverGrid } from '../../../components/CoverGrid.tsx';
import { Loading, Status } from '../../../components/Status.tsx';
import { paths } from '../../../lib/paths.ts';
import { authorBooksQuery } from '../api/authors.ts';
import { useProfileAuthor } from './AuthorPage.tsx';

export function AllBooks() {
  const author = useProfileAuthor();
  const books = useQuery(authorBooksQuery(author.id));
  return (
    <section aria-labelledby="all-books-title">
      <h2 id="all-books-title" className="visually-hidden">
        All Books
      </h2>
      {books.isPending && <Loading />}
      {books.isError && <Status kind="error">Could not load the books.</Status>}
      {books.data?.length === 0 && <Status kind="empty">No books published yet.</Status>}
      {books.data && books.data.length > 0 && (
        <CoverGrid
          label={`Books by ${author.username}`}
          items={books.data.map((b) => ({
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
