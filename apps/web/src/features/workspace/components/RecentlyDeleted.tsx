import { DELETED_CHAPTER_DAYS } from '@inkwell/contract/constants';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { LoadError, Loading, Status } from '../../../components/Status.tsx';
import { useToasts } from '../../../components/toasts.tsx';
import { formatDate, formatDateTime, plural } from '../../../lib/format.ts';
import { deletedChaptersQuery, useRestoreDeletedChapter } from '../api/workspace.ts';

export const TEXTS = {
  restored: (title: string) => `Restored "${title}".`,
  restoreFailed: (title: string) => `Could not restore "${title}".`,
};

/**
 * The book's chapters deleted in the last DELETED_CHAPTER_DAYS (issue 20), each with Restore, which puts it
 * back at its place in the order with its text and versions.
 */
export function RecentlyDeleted({ bookId }: { bookId: number }) {
  const deleted = useQuery(deletedChaptersQuery(bookId));
  const restore = useRestoreDeletedChapter(bookId);
  const { push } = useToasts();
  const heading = useRef<HTMLHeadingElement>(null);
  // Each restore under way, by chapter: several may run at once, each with its own answer
  // (mutate's callbacks would be those of the last call only).
  const [restoring, setRestoring] = useState<ReadonlySet<number>>(new Set());
  const run = async (chapter: { id: number; title: string }) => {
    setRestoring((ids) => new Set(ids).add(chapter.id));
    try {
      await restore.mutateAsync(chapter.id);
      push(TEXTS.restored(chapter.title), { type: 'SUCCESS' });
      // Its row (and the button pressed) goes: the keyboard goes back to the panel's heading.
      heading.current?.focus();
    } catch {
      push(TEXTS.restoreFailed(chapter.title), { type: 'ERROR' });
    } finally {
      setRestoring((ids) => new Set([...ids].filter((id) => id !== chapter.id)));
    }
  };
  return (
    <section className="workspace-panel" aria-labelledby="recently-deleted-title">
      <h2 id="recently-deleted-title" ref={heading} tabIndex={-1}>
        Recently deleted
      </h2>
      <p className="muted">
        Deleted chapters can be restored, with their versions, for {DELETED_CHAPTER_DAYS} days.
      </p>
      {deleted.isPending && <Loading />}
      {deleted.isError && (
        <LoadError onRetry={() => void deleted.refetch()}>
          Could not load the deleted chapters.
        </LoadError>
      )}
      {deleted.data && deleted.data.chapters.length === 0 && (
        <Status kind="empty">No recently deleted chapters.</Status>
      )}
      {deleted.data && deleted.data.chapters.length > 0 && (
        <ul className="deleted-chapters">
          {deleted.data.chapters.map((chapter) => (
            <li key={chapter.id} className="deleted-chapter">
              <span>
                <strong>{chapter.title}</strong>{' '}
                <span className="muted">
                  (chapter {chapter.chapter_order}, {plural(chapter.word_count, 'word', 'words')},
                  {chapter.is_published ? ' published' : ' draft'}; deleted{' '}
                  {formatDateTime(chapter.deleted_at)}, kept until {formatDate(chapter.purge_at)})
                </span>
              </span>
              <button
                type="button"
                className="button button-small"
                aria-label={`Restore ${chapter.title}`}
                disabled={restoring.has(chapter.id)}
                onClick={() => void run(chapter)}
              >
                Restore
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
