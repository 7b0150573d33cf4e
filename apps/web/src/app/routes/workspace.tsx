import { lazy, Suspense } from 'react';
import { useParams } from 'react-router';
import { Loading } from '../../components/Status.tsx';
import { loadChunk } from '../../lib/chunks.ts';
import { paths, routeId } from '../../lib/paths.ts';
import { useWorkspaceBook } from '../../features/workspace/components/BookWorkspace.tsx';
import { NoMatch } from '../NoMatch.tsx';

export { WorkspacePage } from '../../features/workspace/components/WorkspacePage.tsx';
export { BookWorkspace as WorkspaceBookPage } from '../../features/workspace/components/BookWorkspace.tsx';
export { BookDetails as WorkspaceBookDetails } from '../../features/workspace/components/BookDetails.tsx';

// The rich-text editor is the workspace's heaviest part: only the chapter route downloads it.
const ChapterEditorPage = lazy(() =>
  loadChunk(() => import('../../features/editor/components/ChapterEditorPage.tsx')).then((m) => ({
    default: m.ChapterEditorPage,
  })),
);

/** /my/workspace/books/{bookId}/chapters/{chapterId}: the editor, wired to the book workspace around it. */
export function WorkspaceChapterPage() {
  const { bookId, chapterId } = useParams();
  const { requestChapterDelete } = useWorkspaceBook();
  return (
    <Suspense fallback={<Loading />}>
      <ChapterEditorPage
        key={chapterId}
        bookId={routeId(bookId)}
        chapterId={routeId(chapterId)}
        onDelete={requestChapterDelete}
      />
    </Suspense>
  );
}

export const WorkspaceNoMatch = () => (
  <NoMatch back={{ to: paths.workspace, label: 'Back to Workspace' }} />
);
