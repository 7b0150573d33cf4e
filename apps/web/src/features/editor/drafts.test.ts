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
  };
}

describe('local draft store', () => {
  it('writes, reads back and clears a draft, keyed by chapter id', () => {
    const storage = memoryStorage();
    const store = createDraftStore(storage);
    expect(store.write(draft)).toBe(true);
    expect(storage.data.has(draftKey(4))).toBe(true);
    expect(store.read(4)).toEqual(draft);
    expect(store.read(5)).toBeNull();
    store.clear(4);
    expect(store.read(4)).toBeNull();
  });

  it('works in the browser storage (jsdom localStorage)', () => {
    const store = createDraftStore();
    store.write({ ...draft, chapterId: 99 });
    expect(window.localStorage.getItem(draftKey(99))).toContain('"baseVersion":3');
    expect(store.read(99)?.content).toBe('<p>hi</p>');
    store.clear(99);
    expect(window.localStorage.getItem(draftKey(99))).toBeNull();
  });

  it('ignores corrupt or foreign entries', () => {
    const storage = memoryStorage();
    const store = createDraftStore(storage);
    storage.setItem(draftKey(4), '{not json');
    expect(store.read(4)).toBeNull();
    storage.setItem(draftKey(4), JSON.stringify({ ...draft, chapterId: 8 }));
    expect(store.read(4)).toBeNull();
    storage.setItem(draftKey(4), JSON.stringify({ ...draft, content: 42 }));
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
