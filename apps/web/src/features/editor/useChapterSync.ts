import type { Chapter } from '@inkwell/contract';
import { useQueryClient } from '@tanstack/react-query';
import type { Editor } from '@tiptap/core';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useToasts } from '../../components/toasts.tsx';
import { keepSessionFor } from '../../lib/pending-writes.ts';
import { useSession } from '../../lib/session.tsx';
import { fetchChapter } from '../../lib/query.ts';
import { refreshAfterSave, updateChapter } from './api/chapter.ts';
import { ChapterSync, type SyncState } from './chapterSync.ts';
import { createDraftStore } from './drafts.ts';

export const drafts = createDraftStore();

export const TEXTS = {
  autosaved: 'Autosaved Chapter',
  saved: (title: string) => `Saved "${title}"`,
  saveFailed: 'Could not save chapter.',
};

const IDLE: SyncState = {
  status: 'saved',
  version: 0,
  savedAt: '',
  failure: null,
  theirs: null,
  draftKept: true,
};

/**
 * Connects a ChapterSync to the editor, the page and the browser: every editor change feeds it,
 * toasts report its saves, it retries when the browser is back online or the tab is shown again,
 * it saves when the tab is hidden, and the browser warns before closing with unsaved changes.
 */
export function useChapterSync(
  editor: Editor | null,
  chapter: Chapter,
): { sync: ChapterSync | null; state: SyncState } {
  const { push } = useToasts();
  const session = useSession();
  const client = useQueryClient();
  // Read at call time, so a renewed session or a new toaster never restarts the sync.
  const latest = useRef({ push, session, client });
  latest.current = { push, session, client };
  const [sync, setSync] = useState<ChapterSync | null>(null);

  useEffect(() => {
    if (!editor) return;
    let lastHtml = editor.getHTML();
    // After the editor is gone (leaving the page), its last text is still what needs saving.
    const read = () => (editor.isDestroyed ? lastHtml : (lastHtml = editor.getHTML()));
    const instance = new ChapterSync({
      chapter,
      read,
      replace: (html) => {
        editor.commands.setContent(html, { emitUpdate: false });
      },
      save: (body) => updateChapter(chapter.book_id, chapter.id, body),
      load: () => fetchChapter(chapter.id),
      drafts,
      onSaved: (kind, saved) => {
        latest.current.push(kind === 'auto' ? TEXTS.autosaved : TEXTS.saved(saved.title), {
          type: 'SUCCESS',
        });
        refreshAfterSave(latest.current.client, chapter.book_id, chapter.id);
      },
      onFailed: (_failure, first) => {
        if (first) latest.current.push(TEXTS.saveFailed, { type: 'ERROR' });
      },
      // A session renewed in another tab set a new cookie: pick it up without leaving the editor.
      reauthenticate: () => latest.current.session.renew(),
    });
    setSync(instance);

    const onUpdate = () => instance.changed();
    const retry = () => instance.retryNow();
    const onVisibility = () =>
      document.visibilityState === 'hidden' ? instance.flush() : instance.retryNow();
    const onPageHide = () => instance.flush();
    // Another tab removed this tab's draft: written again while its text is not on the server.
    const onStorage = (event: StorageEvent) => {
      if (event.key === drafts.keyOf(chapter.id) && event.newValue === null) instance.redraft();
    };
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!instance.hasUnsavedChanges) return;
      instance.flush();
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    editor.on('update', onUpdate);
    window.addEventListener('online', retry);
    window.addEventListener('focus', retry);
    window.addEventListener('pagehide', onPageHide);
    window.addEventListener('storage', onStorage);
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      editor.off('update', onUpdate);
      window.removeEventListener('online', retry);
      window.removeEventListener('focus', retry);
      window.removeEventListener('pagehide', onPageHide);
      window.removeEventListener('storage', onStorage);
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('visibilitychange', onVisibility);
      // Leaving the editor sends what is pending at once rather than dropping its timer, and
      // a logout (perhaps what the author is leaving for) waits for it.
      instance.dispose();
      keepSessionFor(instance.whenIdle());
    };
    // `chapter` is the copy the editor was created with; another chapter remounts the editor.
  }, [editor]);

  const [before] = useState<SyncState>(() => ({
    ...IDLE,
    version: chapter.version,
    savedAt: chapter.updated_at,
  }));
  const subscribe = useCallback(
    (listener: () => void) => (sync ? sync.subscribe(listener) : () => undefined),
    [sync],
  );
  const state = useSyncExternalStore(subscribe, () => sync?.snapshot ?? before);
  return { sync, state };
}
