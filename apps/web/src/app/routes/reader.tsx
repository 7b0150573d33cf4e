import { lazy } from 'react';
import { useSearchParams } from 'react-router';
import { loadChunk } from '../../lib/chunks.ts';
import {
  ReaderPage as Reader,
  type ReaderNotesProps,
} from '../../features/reader/components/ReaderPage.tsx';
import { withThread } from '../../features/comments/thread.ts';

// Its own module: the reader is the page most visits land on, so it carries nothing else. Private
// notes are for signed-in readers only, so their code arrives after the chapter, in its own chunk.
const ChapterNotes = lazy(() =>
  loadChunk(() => import('../../features/notes/components/ChapterNotes.tsx')).then((m) => ({
    default: m.ChapterNotes,
  })),
);

// The comments (issue 19) too: the reader hands them the content once the text is on screen.
const ChapterComments = lazy(() =>
  loadChunk(() => import('../../features/comments/components/ChapterComments.tsx')).then((m) => ({
    default: m.ChapterComments,
  })),
);

/** The notes, with "Comment on this paragraph" beside "Add note" in the selection's menu. */
function NotesWithComment(props: ReaderNotesProps) {
  const [, setSearch] = useSearchParams();
  return (
    <ChapterNotes
      {...props}
      selectionActions={(quote) => (
        <button
          type="button"
          className="button button-secondary"
          onClick={() =>
            setSearch((params) => withThread(params, quote.paragraph), {
              replace: true,
              preventScrollReset: true,
            })
          }
        >
          Comment on this paragraph
        </button>
      )}
    />
  );
}

export const ReaderPage = () => <Reader Notes={NotesWithComment} Comments={ChapterComments} />;
