import { describe, expect, it } from 'vitest';
import { createDraftStore, draftKey, type ChapterDraft } from './drafts.ts';
import { countWords, describeLength, readingMinutes } from './textStats.ts';

const draft: ChapterDraft = {
  chapterId: 4,
  bookId: 2,
  content: '<p>hi</p>',
  baseVersion: 3,
  savedAt: 1_700_000_000_000,
};

function memoryStorage() {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
    key: (i: number) => [...data.keys()][i] ?? null,
    get length() {
      return data.size;
    },
  };
}

describe('local draft store', () => {
  it("writes, reads back and clears this tab's draft, keyed by chapter id and tab", () => {
    const storage = memoryStorage();
    const store = createDraftStore(storage, 'tab-a');
    expect(store.write(draft)).toBe(true);
    expect(storage.data.has(draftKey(4, 'tab-a'))).toBe(true);
    expect(store.read(4)).toEqual({ ...draft, key: draftKey(4, 'tab-a') });
    expect(store.read(5)).toBeNull();
    store.clear(4);
    expect(store.read(4)).toBeNull();
  });

  it("keeps each tab's draft of a chapter apart: one tab's save never removes another's text", () => {
    const storage = memoryStorage();
    const a = createDraftStore(storage, 'tab-a');
    const b = createDraftStore(storage, 'tab-b');
    b.write({ ...draft, content: '<p>only in b</p>', savedAt: draft.savedAt + 1 });
    a.write({ ...draft, content: '<p>a</p>', savedAt: draft.savedAt + 2 });
    // Tab a's text reached the server: its own draft goes, b's stays.
    a.clear(4);
    expect(a.list(4).map((d) => d.content)).toEqual(['<p>only in b</p>']);
    // The newest of several is offered first; discarding one leaves the rest.
    a.write({ ...draft, content: '<p>a again</p>', savedAt: draft.savedAt + 3 });
    const [newest, older] = b.list(4);
    expect([newest?.content, older?.content]).toEqual(['<p>a again</p>', '<p>only in b</p>']);
    b.discard(newest!);
    expect(a.read(4)?.content).toBe('<p>only in b</p>');
    // Not another chapter's (4 is not 40), and the single key of earlier versions still counts.
    a.write({ ...draft, chapterId: 40 });
    storage.setItem(
      draftKey(4),
      JSON.stringify({ ...draft, content: '<p>legacy</p>', savedAt: 0 }),
    );
    expect(a.list(4).map((d) => d.content)).toEqual(['<p>only in b</p>', '<p>legacy</p>']);
  });

  it('works in the browser storage (jsdom localStorage)', () => {
    const store = createDraftStore();
    store.write({ ...draft, chapterId: 99 });
    expect(window.localStorage.getItem(store.keyOf(99))).toContain('"baseVersion":3');
    expect(store.read(99)?.content).toBe('<p>hi</p>');
    store.clear(99);
    expect(window.localStorage.getItem(store.keyOf(99))).toBeNull();
  });

  it('ignores corrupt or foreign entries', () => {
    const storage = memoryStorage();
    const store = createDraftStore(storage);
    storage.setItem(draftKey(4), '{not json');
    expect(store.read(4)).toBeNull();
    storage.setItem(draftKey(4), JSON.stringify({ ...draft, chapterId: 8 }));
    expect(store.read(4)).toBeNull();
    storage.setItem(draftKey(4, 'x'), JSON.stringify({ ...draft, content: 42 }));
    expect(store.read(4)).toBeNull();
  });

  it('answers false when the browser refuses to store (quota), and works without storage at all', () => {
    const full = {
      ...memoryStorage(),
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
    };
    expect(createDraftStore(full).write(draft)).toBe(false);
    const none = createDraftStore(null);
    expect(none.write(draft)).toBe(false);
    expect(none.read(4)).toBeNull();
  });
});

describe('live word count and reading time', () => {
  it('counts words like the server does', () => {
    expect(countWords('')).toBe(0);
    expect(countWords("It's a well-known  fact—really, 42 times.")).toBe(7);
    expect(countWords('Ünïcödé wörds ça va')).toBe(4);
  });

  it('gives at least a minute for any text, at 230 words a minute', () => {
    expect(readingMinutes(0)).toBe(0);
    expect(readingMinutes(10)).toBe(1);
    expect(readingMinutes(2300)).toBe(10);
    expect(describeLength(1)).toBe('1 word · 1 min read');
    expect(describeLength(0)).toBe('0 words');
  });
});
