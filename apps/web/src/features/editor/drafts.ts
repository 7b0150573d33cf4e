/**
 * The local copy of a chapter's unsaved text. It is written while edits wait to reach the server
 * and removed once they did, so a failed save, a closed tab or a crash never loses a keystroke.
 * localStorage rather than IndexedDB: a synchronous write still lands during `pagehide`.
 *
 * Each tab keeps its own draft of a chapter (its key ends with the tab's owner id): with one key
 * per chapter, two tabs on the same chapter overwrote and removed each other's drafts, and the
 * text one of them could not save was then nowhere. Opening a chapter offers the newest draft any
 * tab left.
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

/** A draft as found in storage, with the key that holds it (this tab's, or another's). */
export type FoundDraft = ChapterDraft & { key: string };

export interface DraftStore {
  /** The key of this tab's draft of a chapter. */
  keyOf(chapterId: number): string;
  /** Every tab's draft of the chapter, newest first. */
  list(chapterId: number): FoundDraft[];
  /** The newest draft of the chapter, whichever tab wrote it. */
  read(chapterId: number): FoundDraft | null;
  /** Writes this tab's draft; answers false when the browser refused (storage full or disabled). */
  write(draft: ChapterDraft): boolean;
  /** Removes this tab's draft of the chapter (its text reached the server). */
  clear(chapterId: number): void;
  /** Removes one found draft (the author chose, or its text is on the server). */
  discard(draft: FoundDraft): void;
}

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

/**
 * The key of a chapter's draft: with an owner, one tab's; without, the single key of the app's
 * versions before owners (still read, so an upgrade loses no draft).
 */
export const draftKey = (chapterId: number, owner?: string) =>
  `inkwell.chapter-draft.${chapterId}${owner === undefined ? '' : `.${owner}`}`;

/** A tab's id: random per page load (crypto.randomUUID needs a secure context). */
export const newOwner = () =>
  `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;

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

export function createDraftStore(
  storage: KeyValueStorage | null = browserStorage(),
  owner: string = newOwner(),
): DraftStore {
  const keysOf = (chapterId: number): string[] => {
    if (!storage) return [];
    const legacy = draftKey(chapterId);
    const keys: string[] = [];
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (key !== null && (key === legacy || key.startsWith(`${legacy}.`))) keys.push(key);
    }
    return keys;
  };
  const parse = (key: string, chapterId: number): FoundDraft | null => {
    try {
      const raw = storage?.getItem(key);
      if (!raw) return null;
      const parsed: unknown = JSON.parse(raw);
      return isDraft(parsed, chapterId) ? { ...parsed, key } : null;
    } catch {
      return null;
    }
  };
  const remove = (key: string) => {
    try {
      storage?.removeItem(key);
    } catch {
      // nothing to remove
    }
  };
  const store: DraftStore = {
    keyOf: (chapterId) => draftKey(chapterId, owner),
    list(chapterId) {
      try {
        return keysOf(chapterId)
          .map((key) => parse(key, chapterId))
          .filter((draft): draft is FoundDraft => draft !== null)
          .sort((a, b) => b.savedAt - a.savedAt);
      } catch {
        return [];
      }
    },
    read: (chapterId) => store.list(chapterId)[0] ?? null,
    write(draft) {
      if (!storage) return false;
      try {
        storage.setItem(store.keyOf(draft.chapterId), JSON.stringify(draft));
        return true;
      } catch {
        return false;
      }
    },
    clear: (chapterId) => remove(store.keyOf(chapterId)),
    discard: (draft) => remove(draft.key),
  };
  return store;
}
