import { formatDateTime } from '../../../lib/format.ts';
import { paths, url } from '../../../lib/paths.ts';
import type { SyncState } from '../chapterSync.ts';
import { Icon } from './icons.tsx';

const LABELS: Record<SyncState['status'], string> = {
  saved: 'All changes saved',
  dirty: 'Unsaved changes',
  saving: 'Saving...',
  failed: 'Not saved',
  conflict: 'Not saved: choose a version',
  gone: 'This chapter was deleted',
};

/** The quiet line under the toolbar: save state, 'Autosaved on: {date}', length and reading time. */
export function SaveStatus({ state, length }: { state: SyncState; length: string }) {
  return (
    <div className="editor-status">
      <p className={`save-state save-state-${state.status}`}>
        <span>{LABELS[state.status]}</span>
        {state.savedAt && (
          <span className="muted">Autosaved on: {formatDateTime(state.savedAt)}</span>
        )}
      </p>
      <p className="editor-length muted">{length}</p>
    </div>
  );
}

/**
 * The persistent warning while text is not on the server. It says what happened, that nothing is
 * lost, and what happens next; it stays until a save goes through.
 */
export function SaveWarning({ state, onRetry }: { state: SyncState; onRetry(): void }) {
  const failure = state.failure;
  if (state.status !== 'failed' && !(state.status === 'saving' && failure)) return null;
  const where = state.draftKept
    ? 'Your text is safe in this tab and kept on this device'
    : 'Your text is safe in this tab (this browser would not keep a copy on the device, so do not close it)';
  return (
    <div className="save-warning">
      <Icon name="warning" size={22} />
      <div role="alert">
        <p>
          <strong>Your latest changes are not saved.</strong> {failure?.message}
        </p>
        <p>
          {where}.{' '}
          {failure?.retryAt
            ? 'Saving is retried automatically.'
            : 'Save again when the problem is fixed.'}
          {failure?.signedOut && (
            <>
              {' '}
              <a href={url(paths.login())} target="_blank" rel="noopener noreferrer">
                Log in again in a new tab
              </a>
              , then come back here.
            </>
          )}
        </p>
      </div>
      <button
        type="button"
        className="button button-small"
        onClick={onRetry}
        disabled={state.status === 'saving'}
      >
        {state.status === 'saving' ? 'Retrying...' : 'Retry now'}
      </button>
    </div>
  );
}
