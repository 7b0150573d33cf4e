import type { Book } from '@inkwell/contract';
import { TITLE_MAX_LENGTH } from '@inkwell/contract/constants';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { SubmitButton } from '../../../components/BusyButton.tsx';
import { CoverImage } from '../../../components/CoverImage.tsx';
import { PageTitle } from '../../../components/Page.tsx';
import { LoadError, Loading, Status } from '../../../components/Status.tsx';
import { paths } from '../../../lib/paths.ts';
import { newBookTitle } from '../../../lib/titles.ts';
import { myBooksQuery, useCreateBook, useDeleteBook } from '../api/workspace.ts';
import { workspacePaths } from '../paths.ts';
import { TypedDeleteModal } from './TypedDeleteModal.tsx';
import '../workspace.css';

/**
 * The add-book form (SPEC section 5): a title one of the author's books already has, in any case,
 * clears the form and sends nothing; an empty one becomes a unique 'Untitled Book (n)'.
 */
export function AddBookForm({ titles }: { titles: readonly string[] | undefined }) {
  const [value, setValue] = useState('');
  const [note, setNote] = useState('');
  /** What the author typed for the book being created. */
  const sent = useRef('');
  const create = useCreateBook({
    onSuccess: (book) => setNote(`Added “${book.title}”.`),
    // Book creation fails silently in the spec (section 8): logged only. What was typed is put
    // back, so the author can try again without typing it twice.
    onError: (error) => {
      console.error('Could not create the book', error);
      setValue((typing) => typing || sent.current);
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!titles || create.isPending) return;
    const title = newBookTitle(titles, value);
    setValue('');
    if (title === null) {
      setNote('You already have a book with this title.');
      return;
    }
    setNote('');
    sent.current = value;
    create.mutate(title);
  };

  return (
    <form className="add-book" onSubmit={submit}>
      <div className="field">
        <label htmlFor="new-book-title">New book title</label>
        <div className="add-book-row">
          <input
            id="new-book-title"
            value={value}
            onChange={(e) => {
              setValue(e.target.value);
              // A new title is a new attempt: the last one's note goes.
              setNote('');
            }}
            maxLength={TITLE_MAX_LENGTH}
            placeholder="Untitled Book"
            autoComplete="off"
          />
          <SubmitButton className="button" disabled={!titles} busy={create.isPending}>
            Add Book
          </SubmitButton>
        </div>
      </div>
      <p className="field-help" role="status">
        {note}
      </p>
    </form>
  );
}

function BookCard({ book, onDelete }: { book: Book; onDelete(book: Book): void }) {
  const titleId = `workspace-book-${book.id}`;
  return (
    <li className="workspace-card">
      <CoverImage src={book.cover} title={book.title} className="workspace-card-cover" />
      <div className="workspace-card-body">
        <h3 id={titleId} className="workspace-card-title">
          {book.title}
        </h3>
        <p className="workspace-card-status">
          Book Status: {book.is_published ? 'Published' : 'Unpublished'}
        </p>
        <div className="workspace-card-actions">
          <button
            type="button"
            className="button button-danger button-small"
            aria-describedby={titleId}
            onClick={() => onDelete(book)}
          >
            Delete
          </button>
          <Link
            className="button button-small"
            to={workspacePaths.book(book.id)}
            aria-describedby={titleId}
          >
            Edit
          </Link>
        </div>
      </div>
    </li>
  );
}

/** /my/workspace: the author's books, the add-book form and the typed-title delete. */
export function WorkspacePage() {
  const books = useQuery(myBooksQuery());
  const remove = useDeleteBook();
  const [deleting, setDeleting] = useState<Book | null>(null);
  // After a delete the dialog gives focus back to the card's Delete button, which is about to
  // go with its card: focus moves on to the list's heading instead. (This effect runs after the
  // dialog's own, which closes it, in the same commit.)
  const listHeading = useRef<HTMLHeadingElement>(null);
  const [deletes, setDeletes] = useState(0);
  useEffect(() => {
    if (deletes > 0) listHeading.current?.focus();
  }, [deletes]);

  const confirmDelete = async () => {
    if (!deleting) return;
    await remove.mutateAsync(deleting.id);
    setDeleting(null);
    setDeletes((n) => n + 1);
  };

  let list;
  if (books.isPending) list = <Loading />;
  else if (books.isError)
    list = <LoadError onRetry={() => void books.refetch()}>Could not load your books.</LoadError>;
  else if (books.data.length === 0)
    list = (
      <Status kind="empty">
        No books yet. Two ways to begin: give your first one a title above, or{' '}
        <Link to={paths.importBook}>import a book you have already written</Link>.
      </Status>
    );
  else
    list = (
      <ul className="workspace-books">
        {books.data.map((book) => (
          <BookCard key={book.id} book={book} onDelete={setDeleting} />
        ))}
      </ul>
    );

  return (
    <div className="page workspace-page">
      <PageTitle>Workspace</PageTitle>
      <section aria-labelledby="my-books-title">
        <h2 id="my-books-title" ref={listHeading} tabIndex={-1}>
          My Books
        </h2>
        <AddBookForm titles={books.data?.map((b) => b.title)} />
        {/* Where an author looks for it: beside Add Book, not only in the sidebar. */}
        <p className="workspace-import">
          Written elsewhere? <Link to={paths.importBook}>Import a book</Link> from EPUB, DOCX,
          Markdown, HTML or text.
        </p>
        {list}
      </section>
      <TypedDeleteModal
        target={deleting && { kind: 'book', title: deleting.title }}
        onClose={() => setDeleting(null)}
        onConfirm={confirmDelete}
      />
    </div>
  );
}
