import type { Book, ChapterSummary } from '@inkwell/contract';
import { QueryClient, queryOptions } from '@tanstack/react-query';
import { api, isApiError } from './api.ts';

/**
 * Query keys used by more than one feature. Features never import each other, so a key that one
 * writes (history recorded by the reader) and another reads (checkmarks on the book page) lives here.
 */
export const keys = {
  history: ['my', 'history'] as const,
  follows: ['my', 'follows'] as const,
  isFollowing: (authorId: number) => ['my', 'is-following', authorId] as const,
  notifications: ['my', 'notifications'] as const,
  readerSettings: ['my', 'reader-settings'] as const,
  book: (id: number) => ['books', id] as const,
  bookChapters: (id: number) => ['books', id, 'chapters'] as const,
  author: (ref: string) => ['authors', ref] as const,
  // The author's own books and chapter lists: written by the workspace and the chapter editor.
  myBooks: ['my', 'books'] as const,
  authorChapters: (bookId: number) => ['my', 'books', bookId, 'chapters'] as const,
  // Shelves and progress: the reader saves the position, the book page and My Library show it.
  library: ['my', 'library'] as const,
  libraryEntry: (bookId: number) => ['my', 'library', bookId] as const,
};

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

/** A book and its chapters: read by the book page, the reader and the workspace alike. */
export const bookQuery = (id: number) =>
  queryOptions({
    queryKey: keys.book(id),
    queryFn: ({ signal }) => api.get<Book>(`/api/books/${id}`, signal),
  });

export const bookChaptersQuery = (id: number) =>
  queryOptions({
    queryKey: keys.bookChapters(id),
    queryFn: ({ signal }) =>
      api.get<{ chapters: ChapterSummary[] }>(`/api/books/${id}/chapters`, signal),
    select: (data) => [...data.chapters].sort((a, b) => a.chapter_order - b.chapter_order),
  });
