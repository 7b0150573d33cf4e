/**
 * The local copy of a chapter's unsaved text. It is written while edits wait to reach the server
 * and removed once they did, so a failed save, a closed tab or a crash never loses a keystroke.
 * localStorage rather than IndexedDB: a synchronous write still lands during `pagehide`.
 */
export interface ChapterDraft {
  chapterId: number;
  bookId: number;
  /** The editor's HTML. */
  content: string;
  /** The server version the edits started from. */
  baseVersion: number;
  /** When the draft was written, in epoch milliseconds. */
  savedAt: number;
}

export interface DraftStore {
  read(chapterId: number): ChapterDraft | null;
  /** Answers false when the browser refused the write (storage full or disabled). */
  write(draft: ChapterDraft): boolean;
  clear(chapterId: number): void;
}

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export const draftKey = (chapterId: number) => `inkwell.chapter-draft.${chapterId}`;

function isDraft(value: unknown, chapterId: number): value is ChapterDraft {
  if (typeof value !== 'object' || value === null) return false;
  const d = value as Record<string, unknown>;
  return (
    d.chapterId === chapterId &&
    typeof d.bookId === 'number' &&
    typeof d.content === 'string' &&
    typeof d.baseVersion === 'number' &&
    typeof d.savedAt === 'number'
  );
}

/** localStorage can be missing or throw on access (privacy modes); then drafts are simply not kept. */
function browserStorage(): KeyValueStorage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

export function createDraftStore(storage: KeyValueStorage | null = browserStorage()): DraftStore {
  return {
    read(chapterId) {
      try {
        const raw = storage?.getItem(draftKey(chapterId));
        if (!raw) return null;
        const parsed: unknown = JSON.parse(raw);
        return isDraft(parsed, chapterId) ? parsed : null;
      } catch {
        return null;
      }
    },
    write(draft) {
      if (!storage) return false;
      try {
        storage.setItem(draftKey(draft.chapterId), JSON.stringify(draft));
        return true;
      } catch {
        return false;
      }
    },
    clear(chapterId) {
      try {
        storage?.removeItem(draftKey(chapterId));
      } catch {
        // nothing to clear
      }
    },
  };
}
