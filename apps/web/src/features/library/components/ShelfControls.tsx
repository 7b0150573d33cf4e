import type { ReadingStatus } from '@inkwell/contract';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';
import { LoadError } from '../../../components/Status.tsx';
import { useToasts } from '../../../components/toasts.tsx';
import { libraryEntryQuery, useUpdateLibraryEntry } from '../api/library.ts';
import { paths } from '../../../lib/paths.ts';
import { continueReadingPath, progressText, STATUS_LABELS } from '../shelves.ts';
import '../library.css';

/**
 * The book page's part of the library: the reading status, the owned flag, progress and
 * "Continue reading". Only for a signed-in reader (the app renders it only then).
 */
export function ShelfControls({ bookId }: { bookId: number }) {
  const id = useId();
  const { push } = useToasts();
  const entry = useQuery(libraryEntryQuery(bookId));
  // The control shows the choice at once; a refusal puts the previous entry back.
  const update = useUpdateLibraryEntry(bookId, {
    onError: () => push('Could not update your library.', { type: 'ERROR' }),
  });

  // Nothing while the entry loads. A failed load says so, with a way to ask again, rather than
  // leaving the controls out; a failed refresh keeps the controls with the entry already there.
  if (entry.data === undefined)
    return entry.isError ? (
      <LoadError onRetry={() => void entry.refetch()}>
        Could not load your reading status for this book.
      </LoadError>
    ) : null;
  const e = entry.data;
  const next = continueReadingPath(e);
  return (
    <div className="shelf-controls">
      <div className="shelf-fields">
        <label htmlFor={`${id}-status`}>Reading status</label>
        <select
          id={`${id}-status`}
          value={e.status}
          onChange={(ev) => update.mutate({ status: ev.target.value as ReadingStatus })}
        >
          {Object.entries(STATUS_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <label className="shelf-owned">
          <input
            type="checkbox"
            checked={e.owned}
            onChange={(ev) => update.mutate({ owned: ev.target.checked })}
          />{' '}
          Owned
        </label>
      </div>
      <p className="shelf-progress">
        {progressText(e.progress)} <Link to={paths.library}>See My Library</Link>
      </p>
      {next && e.position && (
        <Link className="button" to={next}>
          Continue reading
          <span className="visually-hidden">: {e.position.chapter_title}</span>
        </Link>
      )}
    </div>
  );
}
