import type {
  Book,
  Chapter,
  ChapterSummary,
  Genre,
  ReadHistoryItem,
  UpdateBookBody,
} from '@inkwell/contract';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { keys } from '../../../lib/query.ts';

export { bookQuery } from '../../../lib/query.ts';

// ---- books ----

export const myBooksQuery = () =>
  queryOptions({
    queryKey: keys.myBooks,
    queryFn: ({ signal }) => api.get<Book[]>('/api/my/books', signal),
  });

export const createBook = (title: string) => api.post<Book>('/api/books', { title });

export const updateBook = (bookId: number, body: UpdateBookBody) =>
  api.put<Book>(`/api/books/${bookId}`, body);

export const deleteBook = (bookId: number) => api.delete(`/api/books/${bookId}`);

export const uploadCover = (bookId: number, file: File) =>
  api.upload<{ href: string }>(`/api/books/${bookId}/cover`, file);

/** After a book changed: the author's list and every public view of it (page, lists, search). */
export function refreshBooks(client: QueryClient) {
  void client.invalidateQueries({ queryKey: keys.myBooks });
  void client.invalidateQueries({ queryKey: ['books'] });
}

// ---- genres ----

export const allGenresQuery = () =>
  queryOptions({
    queryKey: ['genres'],
    queryFn: ({ signal }) => api.get<{ genres: Genre[] }>('/api/genres', signal),
    select: (data) => data.genres,
    staleTime: Infinity,
  });

export const bookGenresQuery = (bookId: number) =>
  queryOptions({
    queryKey: ['books', bookId, 'genres'] as const,
    queryFn: ({ signal }) => api.get<{ genres: Genre[] }>(`/api/books/${bookId}/genres`, signal),
    select: (data) => data.genres,
  });

export const addBookGenre = (bookId: number, genreId: number) =>
  api.post<{ genres: Genre[] }>(`/api/books/${bookId}/genres`, { genre_id: genreId });

export const removeBookGenre = (bookId: number, genreId: number) =>
  api.delete<{ genres: Genre[] }>(`/api/books/${bookId}/genres`, { genre_id: genreId });

/** The genres that can still be added: every genre not attached yet (SPEC section 5). */
export const selectableGenres = (all: readonly Genre[], attached: readonly Genre[]): Genre[] => {
  const taken = new Set(attached.map((g) => g.id));
  return all.filter((g) => !taken.has(g.id));
};

// ---- chapters ----

/** The author's view: drafts included, in reading order. */
export const authorChaptersQuery = (bookId: number) =>
  queryOptions({
    queryKey: keys.authorChapters(bookId),
    queryFn: ({ signal }) =>
      api.get<{ chapters: ChapterSummary[] }>(`/api/authors/books/${bookId}/chapters`, signal),
    select: (data) => [...data.chapters].sort((a, b) => a.chapter_order - b.chapter_order),
  });

export const createChapter = (bookId: number, title: string, chapterOrder: number) =>
  api.post<Chapter>(`/api/books/${bookId}/chapters`, {
    book_id: bookId,
    title,
    content: '',
    chapter_order: chapterOrder,
  });

export const reorderChapters = (
  bookId: number,
  chapters: Array<{ id: number; chapter_order: number }>,
) => api.put<{ chapters: ChapterSummary[] }>(`/api/books/${bookId}/chapters`, { chapters });

export const deleteChapter = (chapterId: number) => api.delete(`/api/chapters/${chapterId}`);

/** After the chapters of a book changed: the workspace list and the readers' views. */
export function refreshChapters(client: QueryClient, bookId: number) {
  void client.invalidateQueries({ queryKey: keys.authorChapters(bookId) });
  void client.invalidateQueries({ queryKey: keys.book(bookId) });
  void client.invalidateQueries({ queryKey: keys.myBooks });
}

/** The chapters the signed-in author has read themselves, for the checkmarks. */
export const readChaptersQuery = () =>
  queryOptions({
    queryKey: keys.history,
    queryFn: ({ signal }) =>
      api.get<{ read_history: ReadHistoryItem[] }>('/api/my/history', signal),
    select: (data) => new Set(data.read_history.map((item) => item.chapter_id)),
  });
