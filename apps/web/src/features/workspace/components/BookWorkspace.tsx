import type { Book } from '@inkwell/contract';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, Outlet, useNavigate, useOutletContext, useParams } from 'react-router';
import { PageTitle } from '../../../components/Page.tsx';
import { Loading, Status } from '../../../components/Status.tsx';
import { isApiError } from '../../../lib/api.ts';
import { routeId } from '../../../lib/paths.ts';
import { bookQuery } from '../../../lib/query.ts';
import { useAccount } from '../../../lib/session.tsx';
import { useDeleteChapter } from '../api/workspace.ts';
import { workspacePaths } from '../paths.ts';
import { ChapterSidebar } from './ChapterSidebar.tsx';
import { TypedDeleteModal } from './TypedDeleteModal.tsx';
import '../workspace.css';

/** What the pages inside a book's workspace (details editor, chapter editor) get from it. */
export interface WorkspaceBookContext {
  book: Book;
  /** Opens the typed-title delete confirmation for a chapter of this book. */
  requestChapterDelete(chapter: { id: number; title: string }): void;
}

export const useWorkspaceBook = () => useOutletContext<WorkspaceBookContext>();

function Notice({ title, children }: { title: string; children: string }) {
  return (
    <div className="page page-narrow">
      <PageTitle>{title}</PageTitle>
      <p>{children}</p>
      <Link className="button" to={workspacePaths.home}>
        Back to Workspace
      </Link>
    </div>
  );
}

/**
 * /my/workspace/books/{bookId}: the sidebar (links, Add Chapter, the sortable chapter list) beside
 * the details editor or a chapter editor. Owns the delete-chapter modal: after deleting the open
 * chapter, the author lands on the book's workspace page (SPEC section 4).
 */
export function BookWorkspace() {
  const params = useParams();
  const bookId = routeId(params.bookId);
  const openChapterId = routeId(params.chapterId);
  const valid = Number.isInteger(bookId) && bookId > 0;
  const account = useAccount();
  const navigate = useNavigate();
  const book = useQuery({ ...bookQuery(bookId), enabled: valid });
  const removeChapter = useDeleteChapter(bookId);
  const [deleting, setDeleting] = useState<{ id: number; title: string } | null>(null);

  const context = useMemo<WorkspaceBookContext | null>(
    () => (book.data ? { book: book.data, requestChapterDelete: setDeleting } : null),
    [book.data],
  );

  if (!valid || isApiError(book.error, 404))
    return <Notice title="Book not found">This book does not exist.</Notice>;
  // Only when there is nothing to show: a failed refresh (after an upload, say) keeps the book
  // on screen, and with it whatever the author is typing.
  if (book.isError && !book.data) return <Status kind="error">Could not load this book.</Status>;
  if (!context) return <Loading />;
  if (context.book.author_id !== account?.id)
    return <Notice title="Not your book">You can only edit your own books.</Notice>;

  const confirmDelete = async () => {
    if (!deleting) return;
    await removeChapter.mutateAsync(deleting.id);
    setDeleting(null);
    if (deleting.id === openChapterId) navigate(workspacePaths.book(bookId));
  };

  return (
    <div className="workspace-book">
      <aside className="workspace-sidebar" aria-label="Book workspace">
        <ChapterSidebar book={context.book} />
      </aside>
      <div className="workspace-content">
        <Outlet context={context} />
      </div>
      <TypedDeleteModal
        target={deleting && { kind: 'chapter', title: deleting.title }}
        onClose={() => setDeleting(null)}
        onConfirm={confirmDelete}
      />
    </div>
  );
}
