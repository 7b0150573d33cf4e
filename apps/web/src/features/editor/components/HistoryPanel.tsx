import type { RevisionKind, RevisionSummary } from '@inkwell/contract';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Modal } from '../../../components/Modal.tsx';
import { LoadError, Loading, Status } from '../../../components/Status.tsx';
import { formatDate, formatDateTime, plural } from '../../../lib/format.ts';
import { revisionQuery, revisionsQuery } from '../api/revisions.ts';
import { plainText, wordDiff } from '../textDiff.ts';

const KIND_LABELS: Record<RevisionKind, string> = {
  autosave: 'Autosave',
  save: 'Saved',
  publish: 'Published',
  restore: 'Restored',
  import: 'Imported',
};

const timeFormat = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

/** Versions grouped by the day they were kept (the author's own calendar), newest first. */
function byDay(versions: readonly RevisionSummary[]) {
  const days: { day: string; versions: RevisionSummary[] }[] = [];
  for (const version of versions) {
    const day = formatDate(version.created_at);
    const last = days.at(-1);
    if (last?.day === day) last.versions.push(version);
    else days.push({ day, versions: [version] });
  }
  return days;
}

/** The version buttons under `list`, newest first, across days and pages. */
const versionButtons = (list: Element | null) => [
  ...(list?.querySelectorAll<HTMLButtonElement>('button.history-version') ?? []),
];

/** Up and down arrows (and Home, End) move between the version buttons, across days. */
function moveFocus(event: KeyboardEvent<HTMLButtonElement>) {
  const steps: Record<string, number> = { ArrowDown: 1, ArrowUp: -1 };
  if (!(event.key in steps) && event.key !== 'Home' && event.key !== 'End') return;
  const buttons = versionButtons(event.currentTarget.closest('.history-versions'));
  const at = buttons.indexOf(event.currentTarget);
  const next =
    event.key === 'Home'
      ? 0
      : event.key === 'End'
        ? buttons.length - 1
        : Math.min(buttons.length - 1, Math.max(0, at + steps[event.key]!));
  event.preventDefault();
  buttons[next]?.focus();
}

export interface HistoryPanelProps {
  chapterId: number;
  /** The editor's text now, which a version is compared with. */
  currentHtml(): string;
  /** Makes the version current; rejects when it could not. */
  onRestore(revisionId: number): Promise<void>;
  onClose(): void;
}

/**
 * The chapter's History (issue 20): kept versions grouped by day, a word diff of the chosen one
 * against the current text, and Restore after a confirmation. Focus goes to its heading when it
 * opens; the version list is one Tab stop per button, and the arrows move along it. A chapter with
 * more versions than one answer holds shows the older ones page by page, under the list.
 */
export function HistoryPanel({ chapterId, currentHtml, onRestore, onClose }: HistoryPanelProps) {
  const list = useInfiniteQuery(revisionsQuery(chapterId));
  const [selected, setSelected] = useState<number | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [restoring, setRestoring] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  // Every page loaded so far, newest first: the one list the days, the choice and the focus use.
  const loaded = useMemo(
    () => list.data?.pages.flatMap((page) => page.revisions) ?? [],
    [list.data],
  );
  const days = useMemo(() => byDay(loaded), [loaded]);
  const chosen = loaded.find((v) => v.id === selected);

  const versionList = useRef<HTMLDivElement>(null);
  // The version button to focus once an older page is in (its index in `loaded`).
  const [focusAt, setFocusAt] = useState<number | null>(null);
  useEffect(() => {
    if (focusAt !== null) versionButtons(versionList.current)[focusAt]?.focus();
  }, [focusAt]);

  const showOlder = async () => {
    const loadedBefore = loaded.length;
    const answer = await list.fetchNextPage();
    if (answer.isError || !answer.data) return;
    // The first older version, or the oldest shown when none came: the button may be gone (a
    // short page), and focus would otherwise fall back to the start of the page.
    const total = answer.data.pages.reduce((sum, page) => sum + page.revisions.length, 0);
    setFocusAt(Math.min(loadedBefore, total - 1));
  };

  const restore = async () => {
    if (selected === null) return;
    setRestoring(true);
    try {
      await onRestore(selected);
      setSelected(null);
    } catch {
      // The editor page said what went wrong; the version stays chosen for another try.
    } finally {
      setRestoring(false);
      setConfirming(false);
    }
  };

  return (
    <section className="history-panel" id="chapter-history" aria-labelledby="history-title">
      <div className="history-head">
        <h2 id="history-title" ref={heading} tabIndex={-1}>
          History
        </h2>
        <button type="button" className="button button-small" onClick={onClose}>
          Close history
        </button>
      </div>
      {list.isPending && <Loading>Loading versions...</Loading>}
      {list.isError && !list.isFetchNextPageError && (
        <LoadError onRetry={() => void list.refetch()}>
          Could not load the versions of this chapter.
        </LoadError>
      )}
      {list.data && loaded.length === 0 && (
        <Status kind="empty">No versions kept yet: the next save keeps one.</Status>
      )}
      {days.length > 0 && (
        <div className="history-layout">
          <div className="history-versions" ref={versionList}>
            {days.map(({ day, versions }, i) => (
              <div key={day} role="group" aria-labelledby={`history-day-${i}`}>
                <h3 id={`history-day-${i}`} className="history-day">
                  {day}
                </h3>
                <ul className="history-list">
                  {versions.map((v) => (
                    <li key={v.id}>
                      <button
                        type="button"
                        className="history-version"
                        aria-pressed={v.id === selected}
                        onClick={() => setSelected(v.id)}
                        onKeyDown={moveFocus}
                      >
                        <span className="history-time">
                          {timeFormat.format(new Date(v.created_at))}
                        </span>{' '}
                        <span className="history-kind">{KIND_LABELS[v.kind]}</span>{' '}
                        <span className="history-words">{plural(v.words, 'word', 'words')}</span>
                      </button>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
            {list.hasNextPage && (
              <OlderVersions
                // A click while the list is asked again would cancel that for the older page.
                busy={list.isFetching}
                loading={list.isFetchingNextPage}
                failed={list.isFetchNextPageError && !list.isFetchingNextPage}
                onShow={() => void showOlder()}
              />
            )}
          </div>
          <div className="history-preview">
            {chosen ? (
              <VersionDiff
                key={chosen.id}
                chapterId={chapterId}
                version={chosen}
                currentHtml={currentHtml}
                onRestore={() => setConfirming(true)}
              />
            ) : (
              <p className="muted">Choose a version to compare it with the current text.</p>
            )}
          </div>
        </div>
      )}
      <Modal
        open={confirming}
        title="Restore this version?"
        onClose={() => !restoring && setConfirming(false)}
      >
        <p>
          The chapter's text and title become those of{' '}
          {chosen ? formatDateTime(chosen.created_at) : 'this version'}. The current text is kept in
          History first (unsaved changes are saved), so you can come back to it.
        </p>
        <div className="modal-actions">
          <button
            type="button"
            className="button button-secondary"
            onClick={() => setConfirming(false)}
            disabled={restoring}
          >
            Cancel
          </button>
          <button
            type="button"
            className="button"
            onClick={() => void restore()}
            disabled={restoring}
          >
            {restoring ? 'Restoring...' : 'Restore'}
          </button>
        </div>
      </Modal>
    </section>
  );
}

/**
 * Under the version list while older versions may remain: the button that asks for the next page,
 * and what went wrong with the last try (the button stays, for another).
 */
function OlderVersions({
  busy,
  loading,
  failed,
  onShow,
}: {
  busy: boolean;
  loading: boolean;
  failed: boolean;
  onShow(): void;
}) {
  return (
    <div className="history-older">
      {failed && <Status kind="error">Could not load older versions. Try again.</Status>}
      <button type="button" className="button button-small" disabled={busy} onClick={onShow}>
        {loading ? 'Loading older versions...' : 'Show older versions'}
      </button>
    </div>
  );
}

function VersionDiff({
  chapterId,
  version,
  currentHtml,
  onRestore,
}: {
  chapterId: number;
  version: RevisionSummary;
  currentHtml(): string;
  onRestore(): void;
}) {
  const full = useQuery(revisionQuery(chapterId, version.id));
  // The text now, as it was when this version was chosen.
  const [current] = useState(currentHtml);
  const parts = useMemo(
    () => (full.data ? wordDiff(plainText(current), plainText(full.data.content)) : []),
    [full.data, current],
  );
  const label = `${KIND_LABELS[version.kind]}, ${formatDateTime(version.created_at)}`;
  if (full.isPending) return <Loading>Loading this version...</Loading>;
  if (full.isError) return <Status kind="error">Could not load this version.</Status>;
  const unchanged = parts.every((p) => p.change === 'same');
  return (
    <div aria-live="polite">
      <h3 className="history-preview-title">{label}</h3>
      <p className="muted">
        Title: {full.data.title}. Against the current text, restoring it{' '}
        <ins className="diff-added">adds these words</ins> and{' '}
        <del className="diff-removed">removes these</del>.
      </p>
      {unchanged ? (
        <p>This version's text is the same as the current text.</p>
      ) : (
        <div className="history-diff" aria-label={`Changes in ${label}`} role="region" tabIndex={0}>
          {parts.map((part, i) =>
            part.change === 'added' ? (
              <ins key={i} className="diff-added">
                <span className="visually-hidden">[added: </span>
                {part.text}
                <span className="visually-hidden">]</span>
              </ins>
            ) : part.change === 'removed' ? (
              <del key={i} className="diff-removed">
                <span className="visually-hidden">[removed: </span>
                {part.text}
                <span className="visually-hidden">]</span>
              </del>
            ) : (
              <span key={i}>{part.text}</span>
            ),
          )}
        </div>
      )}
      <button type="button" className="button" onClick={onRestore}>
        Restore this version
      </button>
    </div>
  );
}
