import type { ReadingProgress } from '@inkwell/contract';
import type { QueryClient } from '@tanstack/react-query';
import { api, request } from '../../../lib/api.ts';
import { bookChaptersQuery, bookQuery, chapterQuery, historyChanged } from '../../../lib/query.ts';
import { keys } from '../../../lib/query-keys.ts';

/** Records that the reader read the chapter; what is counted from the history is stale then. */
export async function recordHistory(client: QueryClient, bookId: number, chapterId: number) {
  await api.post(`/api/books/${bookId}/chapters/${chapterId}/history`);
  void historyChanged(client);
}

/**
 * Saves where the reader is in the book (PUT /api/my/progress/{bookId}); this book's entry (book
 * page) and the shelves (My Library) are stale then.
 */
export async function saveProgress(
  client: QueryClient,
  bookId: number,
  position: { chapter_id: number; paragraph: number; offset: number },
) {
  // keepalive: the last save is made as the tab closes or hides, and must outlive the page.
  const saved = await request<ReadingProgress>(`/api/my/progress/${bookId}`, {
    method: 'PUT',
    json: position,
    keepalive: true,
  });
  void client.invalidateQueries({ queryKey: keys.library });
  return saved;
}

/**
 * Puts what the reader shows into the cache (the chapter, its book, the chapter list for
 * Previous/Next), so that the page renders once, complete: used as the route's loader. On a first
 * visit the server has already asked for all three (page preloads), and these requests take its
 * answers. Never throws: a failed read stays in the cache as an error for the page to show.
 */
export async function prefetchReader(client: QueryClient, bookId: number, chapterId: number) {
  if (!(bookId > 0) || !(chapterId > 0)) return;
  await Promise.all([
    client.prefetchQuery(chapterQuery(chapterId)),
    client.prefetchQuery(bookQuery(bookId)),
    client.prefetchQuery(bookChaptersQuery(bookId)),
  ]);
}

/** The browser session's id for view counts: random, kept in sessionStorage, never sent signed in. */
const VIEW_SESSION_KEY = 'inkwell-view-session';
/** Chapters this page load already reported: the server keeps one per session anyway. */
const viewed = new Set<number>();

function viewSession(): string | null {
  try {
    let id = sessionStorage.getItem(VIEW_SESSION_KEY);
    if (!id) {
      const bytes = crypto.getRandomValues(new Uint8Array(16));
      id = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
      sessionStorage.setItem(VIEW_SESSION_KEY, id);
    }
    return id;
  } catch {
    // Storage refused (a privacy mode): the view is simply not counted.
    return null;
  }
}

/**
 * Tells the author's statistics that a visitor's browser session read the chapter (issue 20),
 * once per chapter and session. Signed-in readers count through their history instead. A
 * failure is ignored: a missed view is not the reader's concern.
 */
export function reportView(chapterId: number): void {
  if (viewed.has(chapterId)) return;
  const session = viewSession();
  if (!session) return;
  viewed.add(chapterId);
  api.post(`/api/chapters/${chapterId}/view`, { session }).catch(() => undefined);
}
