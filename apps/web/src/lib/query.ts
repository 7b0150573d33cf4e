import type {
  Book,
  Chapter,
  ChapterSummary,
  Genre,
  ReadHistoryItem,
  TagsResponse,
} from '@inkwell/contract';
import { QueryClient, queryOptions } from '@tanstack/react-query';
import { api, isApiError } from './api.ts';
import { keys } from './query-keys.ts';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // A 4xx will not change by asking again; a network blip might.
        retry: (count, error) =>
          count < 2 && !(isApiError(error) && error.status >= 400 && error.status < 500),
      },
    },
  });
}

// The queries several features read, one per resource (features never import each other). A
// feature that needs a different freshness or shape spreads one of these and adds its options.

/** A book: read by the book page, the reader and the workspace alike. */
export const bookQuery = (id: number) =>
  queryOptions({
    queryKey: keys.book(id),
    queryFn: ({ signal }) => api.get<Book>(`/api/books/${id}`, signal),
  });

/** The chapters a reader may open, in reading order. */
export const bookChaptersQuery = (id: number) =>
  queryOptions({
    queryKey: keys.bookChapters(id),
    queryFn: ({ signal }) =>
      api.get<{ chapters: ChapterSummary[] }>(`/api/books/${id}/chapters`, signal),
    select: (data) => [...data.chapters].sort((a, b) => a.chapter_order - b.chapter_order),
  });

/** A chapter with its content (drafts too, for their author): the reader's and the editor's. */
export const fetchChapter = (id: number, signal?: AbortSignal) =>
  api.get<Chapter>(`/api/chapters/${id}`, signal);

export const chapterQuery = (id: number) =>
  queryOptions({
    queryKey: keys.chapter(id),
    queryFn: ({ signal }) => fetchChapter(id, signal),
  });

/** Every genre, in the server's order; they never change while the app runs. */
export const genresQuery = () =>
  queryOptions({
    queryKey: keys.genres,
    queryFn: ({ signal }) => api.get<{ genres: Genre[] }>('/api/genres', signal),
    select: (data) => data.genres,
    staleTime: Infinity,
  });

/**
 * Tags of published books starting with `prefix`, most used first: the suggestions of every tag
 * input (filters, the book details editor, My filters). An empty prefix asks for the most used.
 */
export const tagSuggestionsQuery = (prefix: string) =>
  queryOptions({
    queryKey: keys.tags(prefix),
    queryFn: ({ signal }) =>
      api.get<TagsResponse>(`/api/tags?${new URLSearchParams({ q: prefix })}`, signal),
    select: (data) => data.tags,
    staleTime: 60_000,
  });

/**
 * The reader's history changed (a chapter read, or one taken out of it): what is counted from it
 * is stale too, the checkmarks and Read History, the library's "chapters read" and the followed
 * books' unread counts.
 */
export function historyChanged(client: QueryClient): Promise<void> {
  return Promise.all(
    [keys.history, keys.library, keys.followedBooks].map((queryKey) =>
      client.invalidateQueries({ queryKey }),
    ),
  ).then(() => {});
}

/** The signed-in reader's history: the Read History page, and checkmarks on chapter lists. */
export const historyQuery = () =>
  queryOptions({
    queryKey: keys.history,
    queryFn: ({ signal }) =>
      api.get<{ read_history: ReadHistoryItem[] }>('/api/my/history', signal),
  });

/** The read history as the ids of the chapters read (checkmarks): one cache entry with it. */
export const readChaptersQuery = () =>
  queryOptions({
    ...historyQuery(),
    select: (data): Set<number> => new Set(data.read_history.map((item) => item.chapter_id)),
  });

/**
 * After a write that changes what readers see of books (a book's details, publishing, a chapter's
 * title): every public view that shows books, refetched when next shown.
 */
export function refreshPublicViews(client: QueryClient): void {
  void client.invalidateQueries({ queryKey: keys.books });
  void client.invalidateQueries({ queryKey: keys.authors });
  void client.invalidateQueries({ queryKey: keys.home });
}
