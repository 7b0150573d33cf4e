import type { Chapter, UpdateChapterBody } from '@inkwell/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { EditorContent, useEditor } from '@tiptap/react';
import { useEffect, useRef, useState } from 'react';
import { useLeaveGuard } from '../../../components/LeaveGuard.tsx';
import { PageTitle } from '../../../components/Page.tsx';
import { Loading, Status } from '../../../components/Status.tsx';
import { useToasts } from '../../../components/toasts.tsx';
import { isApiError } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import {
  editorChapterQuery,
  readChapter,
  refreshAfterPublicChange,
  updateChapter,
} from '../api/chapter.ts';
import { refreshRevisions, restoreRevision } from '../api/revisions.ts';
import type { FoundDraft } from '../drafts.ts';
import type { ChapterSync, SyncState } from '../chapterSync.ts';
import { chapterExtensions } from '../extensions.ts';
import { cleanPastedHtml } from '../paste.ts';
import { countWords, describeLength } from '../textStats.ts';
import { changeSchedule } from '../scheduleChange.ts';
import { drafts, useChapterSync } from '../useChapterSync.ts';
import { useScheduledRelease } from '../useScheduledRelease.ts';
import { AuthorNotes } from './AuthorNotes.tsx';
import { ChapterTitle } from './ChapterTitle.tsx';
import { HistoryPanel } from './HistoryPanel.tsx';
import { Icon } from './icons.tsx';
import { SaveStatus, SaveWarning } from './SaveStatus.tsx';
import { ScheduleControl } from './ScheduleControl.tsx';
import { Toolbar } from './Toolbar.tsx';
import { VersionChoice } from './VersionChoice.tsx';
import '../editor.css';

export const TEXTS = {
  published: (on: boolean) => `Updated Publish Status: ${on ? 'True' : 'False'}`,
  publishFailed: 'Could not update chapter published status.',
  publishUnsaved:
    'Your latest changes are not saved, so the chapter was not published. Save them first.',
  renamed: (title: string) => `Changed chapter title to: ${title}`,
  renameFailed: 'Could not change title name.',
  locked: (on: boolean) => (on ? 'Comments locked on this chapter.' : 'Comments open again.'),
  lockFailed: 'Could not change whether comments are locked.',
  scheduled: (on: boolean) => (on ? 'Chapter scheduled.' : 'Schedule cancelled.'),
  released: 'This chapter was published as scheduled.',
  restored: 'Restored an earlier version.',
  restoreFailed: 'Could not restore this version; your text is unchanged.',
  notesUnsaved: 'Your author’s notes are not saved. Leave, and what you typed in them is lost.',
  // What leaving would cost while the chapter's text is not on the server (useLeaveGuard asks).
  textKeptHere:
    'Your latest changes are not on the server yet. They stay on this device, and you will be offered them when you open this chapter again.',
  textNotKept:
    'Your latest changes are not on the server, and this browser would not keep a copy of them. Leave, and they are lost: copy anything you want to keep first.',
  textOfDeletedChapter:
    'This chapter was deleted, so your latest changes can no longer be saved. Leave, and they are lost: copy anything you want to keep first.',
};

export interface ChapterEditorPageProps {
  bookId: number;
  chapterId: number;
  /** Opens the workspace's delete-chapter confirmation. */
  onDelete(chapter: { id: number; title: string }): void;
}

/** The chapter editor route: 'Loading...' until the chapter's content is here (SPEC section 2). */
export function ChapterEditorPage({ bookId, chapterId, onDelete }: ChapterEditorPageProps) {
  const chapter = useQuery({
    ...editorChapterQuery(chapterId),
    enabled: Number.isInteger(chapterId) && chapterId > 0,
  });
  if (
    isApiError(chapter.error, 404) ||
    (chapter.data && chapter.data.book_id !== bookId) ||
    !(chapterId > 0)
  ) {
    return (
      <div className="chapter-editor-page">
        <PageTitle>Chapter not found</PageTitle>
        <p>This chapter does not exist, or it belongs to another book.</p>
      </div>
    );
  }
  if (chapter.isError) {
    return (
      <div className="chapter-editor-page">
        <Status kind="error">Could not load this chapter.</Status>
        <button type="button" className="button" onClick={() => void chapter.refetch()}>
          Try again
        </button>
      </div>
    );
  }
  // Never a cached copy: the editor starts from the server's answer to this opening.
  if (!chapter.data || !chapter.isFetchedAfterMount) return <Loading />;
  return <ChapterEditor initial={chapter.data} onDelete={onDelete} />;
}

/**
 * A local draft worth offering: the newest one (of any tab) whose text differs from what the
 * editor shows from the server. Drafts equal to that text were saved after all, and go.
 */
function useDraftOffer(chapterId: number, serverHtml: () => string | undefined) {
  const [draft, setDraft] = useState<FoundDraft | null>(() => {
    const shown = serverHtml();
    if (shown === undefined) return null;
    return drafts.list(chapterId).find((found) => found.content !== shown) ?? null;
  });
  const shownAtStart = useRef(serverHtml);
  useEffect(() => {
    const shown = shownAtStart.current();
    for (const found of drafts.list(chapterId)) if (found.content === shown) drafts.discard(found);
  }, [chapterId]);
  return [draft, setDraft] as const;
}

/**
 * What leaving the editor now would lose, in the leave question's words; null when nothing.
 * Plain unsaved typing needs no question (leaving saves it); text that cannot be saved does.
 */
export function whatLeavingLoses(
  state: SyncState,
  sync: Pick<ChapterSync, 'hasUnsavedChanges'> | null,
  notesUnsaved: boolean,
): string | null {
  // A save that failed stays failed through its retries (status 'saving' while one runs): the
  // text is still not on the server until one of them answers.
  const notSaved =
    state.status === 'conflict' || (state.failure !== null && state.status !== 'gone');
  if (notSaved) return state.draftKept ? TEXTS.textKeptHere : TEXTS.textNotKept;
  if (state.status === 'gone' && sync?.hasUnsavedChanges) return TEXTS.textOfDeletedChapter;
  return notesUnsaved ? TEXTS.notesUnsaved : null;
}

function useLength(editor: ReturnType<typeof useEditor>) {
  const [words, setWords] = useState(() => (editor ? countWords(editor.getText()) : 0));
  useEffect(() => {
    if (!editor) return;
    let frame = 0;
    // Once per frame at most, however fast the typing.
    const update = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => setWords(countWords(editor.getText())));
    };
    editor.on('update', update);
    update();
    return () => {
      cancelAnimationFrame(frame);
      editor.off('update', update);
    };
  }, [editor]);
  return describeLength(words);
}

function ChapterEditor({
  initial,
  onDelete,
}: {
  initial: Chapter;
  onDelete: ChapterEditorPageProps['onDelete'];
}) {
  const [start] = useState(initial);
  const { push } = useToasts();
  const client = useQueryClient();
  const [meta, setMeta] = useState({
    title: start.title,
    is_published: start.is_published,
    comments_locked: start.comments_locked ?? false,
    publish_at: start.publish_at ?? null,
  });
  const [locking, setLocking] = useState(false);
  const [publishing, setPublishing] = useState(false);
  const [choosing, setChoosing] = useState(false);
  const [historyOpen, setHistoryOpen] = useState(false);
  const historyButton = useRef<HTMLButtonElement>(null);
  const [notesUnsaved, setNotesUnsaved] = useState(false);
  const saveRef = useRef<() => void>(() => undefined);

  const editor = useEditor(
    {
      extensions: chapterExtensions(() => saveRef.current()),
      content: start.content,
      immediatelyRender: true,
      shouldRerenderOnTransaction: false,
      editorProps: {
        attributes: {
          id: 'chapter-text',
          class: 'chapter-text prose',
          role: 'textbox',
          'aria-multiline': 'true',
          'aria-label': 'Chapter text',
          spellcheck: 'true',
        },
        transformPastedHTML: cleanPastedHtml,
      },
    },
    [],
  );
  const { sync, state } = useChapterSync(editor, start);
  const [draft, setDraft] = useDraftOffer(start.id, () => editor?.getHTML());
  const length = useLength(editor);
  saveRef.current = () => void sync?.save('manual');

  const paused = draft !== null || state.status === 'conflict' || state.status === 'gone';
  useEffect(() => {
    editor?.setEditable(!paused, false);
  }, [editor, paused]);

  const write = async (
    body: Pick<
      UpdateChapterBody,
      'title' | 'is_published' | 'comments_locked' | 'publish_at' | 'note_before' | 'note_after'
    >,
  ) => {
    if (!sync) throw new Error('not ready');
    const chapter = await sync.write(
      () => updateChapter(start.book_id, start.id, body),
      body.title !== undefined,
    );
    setMeta((m) => ({
      title: chapter.title,
      is_published: chapter.is_published,
      comments_locked: chapter.comments_locked ?? body.comments_locked ?? m.comments_locked,
      publish_at: chapter.publish_at ?? null,
    }));
    refreshAfterPublicChange(client, start.book_id, start.id);
    return chapter;
  };

  const rename = async (title: string) => {
    try {
      const chapter = await write({ title });
      push(TEXTS.renamed(chapter.title), { type: 'SUCCESS' });
      return true;
    } catch (error) {
      console.error('Could not rename the chapter', error);
      push(TEXTS.renameFailed, { type: 'ERROR' });
      return false;
    }
  };

  const togglePublished = async () => {
    setPublishing(true);
    try {
      // What readers (and the followers told of it) get is the text as typed, not as last autosaved.
      if (!meta.is_published && !(await sync?.settle())) {
        push(TEXTS.publishUnsaved, { type: 'ERROR' });
        return;
      }
      const chapter = await write({ is_published: !meta.is_published });
      push(TEXTS.published(chapter.is_published), { type: 'SUCCESS' });
    } catch (error) {
      console.error('Could not change the published status', error);
      push(TEXTS.publishFailed, { type: 'ERROR' });
    } finally {
      setPublishing(false);
    }
  };

  // A lock changes neither the text nor the title: the version stays (no bump).
  // The box shows the choice at once; a failure puts it back.
  const toggleLocked = async (locked: boolean) => {
    setLocking(true);
    setMeta((m) => ({ ...m, comments_locked: locked }));
    try {
      const chapter = await write({ comments_locked: locked });
      push(TEXTS.locked(chapter.comments_locked ?? locked), { type: 'SUCCESS' });
    } catch (error) {
      console.error('Could not change the comments lock', error);
      push(TEXTS.lockFailed, { type: 'ERROR' });
      setMeta((m) => ({ ...m, comments_locked: !locked }));
    } finally {
      setLocking(false);
    }
  };

  const released = (chapter: Chapter) => {
    setMeta((m) => ({ ...m, is_published: chapter.is_published, publish_at: null }));
    refreshAfterPublicChange(client, start.book_id, start.id);
    push(TEXTS.released, { type: 'SUCCESS' });
  };
  useScheduledRelease(start.id, meta.is_published ? null : meta.publish_at, released);

  const schedule = async (publishAt: string | null) => {
    const answer = await changeSchedule(
      () => write({ publish_at: publishAt }),
      () => readChapter(start.id),
    );
    if (answer.released) released(answer.chapter);
    else push(TEXTS.scheduled(answer.chapter.publish_at != null), { type: 'SUCCESS' });
  };

  /** Restores a kept version: pending typing is saved first (so History keeps it), then the text is replaced. */
  const restoreVersion = async (revisionId: number) => {
    if (!sync) return;
    try {
      const chapter = await sync.adopt(() => restoreRevision(start.id, revisionId));
      setMeta((m) => ({ ...m, title: chapter.title, is_published: chapter.is_published }));
      refreshAfterPublicChange(client, start.book_id, start.id);
      refreshRevisions(client, start.id);
      push(TEXTS.restored, { type: 'SUCCESS' });
      setHistoryOpen(false);
      editor?.commands.focus('start');
    } catch (error) {
      console.error('Could not restore the version', error);
      push(TEXTS.restoreFailed, { type: 'ERROR' });
      throw error;
    }
  };

  const closeHistory = () => {
    setHistoryOpen(false);
    historyButton.current?.focus();
  };

  const choose = async (run: () => Promise<void> | void) => {
    setChoosing(true);
    try {
      await run();
    } finally {
      setChoosing(false);
      editor?.commands.focus();
    }
  };

  // Nothing to lose before the editor is there.
  useLeaveGuard(editor ? whatLeavingLoses(state, sync, notesUnsaved) : null);
  if (!editor) return <Loading />;

  return (
    <div className="chapter-editor-page">
      <header className="chapter-editor-head">
        <ChapterTitle title={meta.title} onRename={rename} />
        <div className="chapter-editor-actions">
          <button
            type="button"
            className="button button-secondary"
            onClick={togglePublished}
            disabled={publishing || !sync}
            aria-describedby="chapter-publish-state"
          >
            <Icon name={meta.is_published ? 'boxChecked' : 'box'} />
            {meta.is_published ? 'Unpublish' : 'Publish'}
          </button>
          <span id="chapter-publish-state" className="visually-hidden">
            {meta.is_published ? 'This chapter is published.' : 'This chapter is a draft.'}
          </span>
          {!meta.is_published && (
            <ScheduleControl
              publishAt={meta.publish_at}
              disabled={publishing || !sync}
              onSchedule={schedule}
            />
          )}
          <label className="checkbox-field chapter-lock">
            <input
              type="checkbox"
              checked={meta.comments_locked}
              disabled={locking || !sync}
              onChange={(e) => void toggleLocked(e.target.checked)}
            />
            Lock comments
          </label>
          <button
            type="button"
            ref={historyButton}
            className="button button-secondary"
            aria-expanded={historyOpen}
            aria-controls={historyOpen ? 'chapter-history' : undefined}
            onClick={() => (historyOpen ? closeHistory() : setHistoryOpen(true))}
            // A version restored now would replace the text, and the offered draft with it.
            disabled={draft !== null}
          >
            History
          </button>
          <button
            type="button"
            className="button button-danger"
            onClick={() => onDelete({ id: start.id, title: meta.title })}
          >
            <Icon name="trash" />
            Delete
          </button>
        </div>
      </header>

      <Toolbar editor={editor} onSave={() => saveRef.current()} disabled={!sync || paused} />
      <SaveStatus state={state} length={length} />
      <SaveWarning state={state} onRetry={() => sync?.retryNow()} />

      {historyOpen && (
        <HistoryPanel
          chapterId={start.id}
          currentHtml={() => editor.getHTML()}
          onRestore={restoreVersion}
          onClose={closeHistory}
        />
      )}

      {state.status === 'gone' && (
        <p className="save-warning" role="alert">
          This chapter was deleted, so this text can no longer be saved. Copy anything you want to
          keep.
        </p>
      )}

      {draft && sync && (
        <VersionChoice
          heading="Unsaved changes were found on this device"
          mine={{
            label: `Draft on this device (${formatDateTime(new Date(draft.savedAt).toISOString())})`,
            html: draft.content,
          }}
          theirs={{
            label: `Saved version (${formatDateTime(state.savedAt)})`,
            html: start.content,
          }}
          keepMine="Restore my draft"
          keepTheirs="Keep the saved version"
          busy={choosing}
          onChoose={(choice) =>
            void choose(async () => {
              setDraft(null);
              // Chosen: the offered draft goes, and so do older ones other tabs left, lest they
              // be offered next time over newer text (a tab still open writes its own again).
              // Restoring writes this tab's own draft first; that one stays until the save lands.
              const own = drafts.keyOf(start.id);
              const settled = () => {
                for (const found of drafts.list(start.id))
                  if (found.key !== own && found.savedAt <= draft.savedAt) drafts.discard(found);
              };
              if (choice === 'theirs') {
                drafts.discard(draft);
                settled();
              } else await sync.restore(draft.content, settled);
            })
          }
        >
          <p>
            The last changes made here did not reach the server.
            {draft.baseVersion < start.version &&
              ' The chapter was also saved somewhere else since then.'}{' '}
            Which version do you want to keep?
          </p>
        </VersionChoice>
      )}

      {state.status === 'conflict' && sync && (
        <VersionChoice
          heading="This chapter was changed somewhere else"
          mine={{ label: 'Your version (this tab)', html: editor.getHTML() }}
          theirs={{
            label: state.theirs
              ? `Saved version (${formatDateTime(state.theirs.updated_at)})`
              : 'Saved version (loading...)',
            html: state.theirs?.content ?? '',
          }}
          keepMine="Keep my version"
          keepTheirs="Use the saved version"
          busy={choosing || !state.theirs}
          onChoose={(choice) => void choose(() => sync.resolve(choice))}
        >
          <p>
            Another tab or device saved this chapter after you started editing here. Nothing has
            been overwritten: choose the version to keep.
          </p>
          {state.failure && (
            <p className="form-error">
              {state.failure.message}{' '}
              <button
                type="button"
                className="button button-small"
                onClick={() => void sync.reloadTheirs()}
              >
                Try again
              </button>
            </p>
          )}
        </VersionChoice>
      )}

      <EditorContent editor={editor} className={`chapter-text-wrap${paused ? ' is-paused' : ''}`} />
      <AuthorNotes
        noteBefore={start.note_before ?? ''}
        noteAfter={start.note_after ?? ''}
        disabled={!sync}
        onSave={write}
        onUnsavedChange={setNotesUnsaved}
      />
    </div>
  );
}
