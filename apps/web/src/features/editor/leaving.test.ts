import { describe, expect, it } from 'vitest';
import type { SyncState } from './chapterSync.ts';
import { TEXTS, whatLeavingLoses } from './components/ChapterEditorPage.tsx';

const SAVED: SyncState = {
  status: 'saved',
  version: 3,
  savedAt: '2026-11-30T12:00:00.000Z',
  failure: null,
  theirs: null,
  draftKept: true,
};
const FAILURE = { message: 'Could not save chapter.', signedOut: false, retryAt: null };
const unsaved = { hasUnsavedChanges: true };

describe('what leaving the editor would lose', () => {
  it('asks while a failed save is not on the server, through its retries', () => {
    const failed: SyncState = { ...SAVED, status: 'failed', failure: FAILURE };
    expect(whatLeavingLoses(failed, unsaved, false)).toBe(TEXTS.textKeptHere);
    // A retry is under way: the text is still not on the server until it answers.
    const retrying: SyncState = { ...failed, status: 'saving' };
    expect(whatLeavingLoses(retrying, unsaved, false)).toBe(TEXTS.textKeptHere);
    expect(whatLeavingLoses({ ...retrying, draftKept: false }, unsaved, false)).toBe(
      TEXTS.textNotKept,
    );
  });

  it('asks nothing of plain typing or a first save under way (leaving saves it)', () => {
    expect(whatLeavingLoses(SAVED, null, false)).toBeNull();
    expect(whatLeavingLoses({ ...SAVED, status: 'dirty' }, unsaved, false)).toBeNull();
    expect(whatLeavingLoses({ ...SAVED, status: 'saving' }, unsaved, false)).toBeNull();
  });

  it('asks in a conflict, for a deleted chapter with text typed, and for unsaved notes', () => {
    expect(whatLeavingLoses({ ...SAVED, status: 'conflict' }, unsaved, false)).toBe(
      TEXTS.textKeptHere,
    );
    expect(whatLeavingLoses({ ...SAVED, status: 'gone' }, unsaved, false)).toBe(
      TEXTS.textOfDeletedChapter,
    );
    expect(
      whatLeavingLoses({ ...SAVED, status: 'gone' }, { hasUnsavedChanges: false }, false),
    ).toBeNull();
    expect(whatLeavingLoses(SAVED, null, true)).toBe(TEXTS.notesUnsaved);
  });
});
