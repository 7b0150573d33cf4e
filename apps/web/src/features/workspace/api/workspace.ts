import type {
  Book,
  Chapter,
  ChapterSummary,
  DeletedChaptersResponse,
  Genre,
  UpdateBookBody,
} from '@inkwell/contract';
import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { MutationCallbacks } from '../../../lib/mutations.ts';
import { keys } from '../../../lib/query-keys.ts';
import { refreshPublicViews } from '../../../lib/query.ts';

// ---- books ----

export const myBooksQuery = () =>
  queryOptions({
    queryKey: keys.myBooks,
    queryFn: ({ signal }) => api.get<Book[]>('/api/my/books', signal),
  });

/**
 * After a book changed: the author's list and every public view of it (page, lists, search, the
 * author's profile, home).
 */
function refreshBooks(client: QueryClient) {
  void client.invalidateQueries({ queryKey: keys.myBooks });
  refreshPublicViews(client);
}

/** Creates a book; it joins the author's list at once, so a quick second 'Untitled Book' counts it. */
export function useCreateBook(ui: MutationCallbacks<Book, string> = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (title: string) => api.post<Book>('/api/books', { title }),
    onSuccess: (book, ...rest) => {
      client.setQueryData<Book[]>(keys.myBooks, (old) => old && [book, ...old]);
      refreshBooks(client);
      return ui.onSuccess?.(book, ...rest);
    },
    onError: ui.onError,
  });
}

export function useUpdateBook(bookId: number, ui: MutationCallbacks<Book, UpdateBookBody> = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateBookBody) => api.put<Book>(`/api/books/${bookId}`, body),
    onSuccess: (updated, ...rest) => {
      client.setQueryData(keys.book(bookId), updated);
      refreshBooks(client);
      return ui.onSuccess?.(updated, ...rest);
    },
    onError: ui.onError,
  });
}

export function useDeleteBook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (bookId: number) => api.delete(`/api/books/${bookId}`),
    onSuccess: () => refreshBooks(client),
  });
}

export function useUploadCover(bookId: number, ui: MutationCallbacks<{ href: string }, File> = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => api.upload<{ href: string }>(`/api/books/${bookId}/cover`, file),
    onSuccess: (answer, ...rest) => {
      client.setQueryData<Book>(keys.book(bookId), (old) => old && { ...old, cover: answer.href });
      refreshBooks(client);
      return ui.onSuccess?.(answer, ...rest);
    },
    onError: ui.onError,
  });
}

// ---- genres of a book ----

export const bookGenresQuery = (bookId: number) =>
  queryOptions({
    queryKey: keys.bookGenres(bookId),
    queryFn: ({ signal }) => api.get<{ genres: Genre[] }>(`/api/books/${bookId}/genres`, signal),
    select: (data) => data.genres,
  });

/** Adds (or, with `remove`, takes off) a genre; the answer is the book's genres as they now are. */
function useGenreChange<TVariables>(
  bookId: number,
  change: (variables: TVariables) => Promise<{ genres: Genre[] }>,
  ui: MutationCallbacks<{ genres: Genre[] }, TVariables>,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: (answer, ...rest) => {
      client.setQueryData(keys.bookGenres(bookId), answer);
      refreshBooks(client);
      return ui.onSuccess?.(answer, ...rest);
    },
    onError: ui.onError,
  });
}

export const useAddBookGenre = (
  bookId: number,
  ui: MutationCallbacks<{ genres: Genre[] }, number> = {},
) =>
  useGenreChange(
    bookId,
    (genreId: number) =>
      api.post<{ genres: Genre[] }>(`/api/books/${bookId}/genres`, { genre_id: genreId }),
    ui,
  );

export const useRemoveBookGenre = (
  bookId: number,
  ui: MutationCallbacks<{ genres: Genre[] }, Genre> = {},
) =>
  useGenreChange(
    bookId,
    (genre: Genre) =>
      api.delete<{ genres: Genre[] }>(`/api/books/${bookId}/genres`, { genre_id: genre.id }),
    ui,
  );

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

/** After the chapters of a book changed: the workspace list and the readers' views. */
function refreshChapters(client: QueryClient, bookId: number) {
  void client.invalidateQueries({ queryKey: keys.authorChapters(bookId) });
  void client.invalidateQueries({ queryKey: keys.book(bookId) });
  void client.invalidateQueries({ queryKey: keys.myBooks });
}

/**
 * Adds an empty chapter; it joins the list at once, so a quick second click already counts it for
 * its title and order.
 */
export function useCreateChapter(
  bookId: number,
  ui: MutationCallbacks<Chapter, { title: string; order: number }> = {},
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ title, order }: { title: string; order: number }) =>
      api.post<Chapter>(`/api/books/${bookId}/chapters`, {
        book_id: bookId,
        title,
        content: '',
        chapter_order: order,
      }),
    onSuccess: (created, ...rest) => {
      const { content: _content, ...summary } = created;
      client.setQueryData<{ chapters: ChapterSummary[] }>(
        keys.authorChapters(bookId),
        (old) => old && { chapters: [...old.chapters, summary] },
      );
      refreshChapters(client, bookId);
      return ui.onSuccess?.(created, ...rest);
    },
    onError: ui.onError,
  });
}

type ChapterOrder = Array<{ id: number; chapter_order: number }>;

/** Saves a new reading order; the answer is the list as saved, and readers' lists are stale. */
export function useReorderChapters(
  bookId: number,
  ui: MutationCallbacks<{ chapters: ChapterSummary[] }, ChapterOrder> = {},
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (chapters: ChapterOrder) =>
      api.put<{ chapters: ChapterSummary[] }>(`/api/books/${bookId}/chapters`, { chapters }),
    onSuccess: (saved, ...rest) => {
      client.setQueryData(keys.authorChapters(bookId), saved);
      void client.invalidateQueries({ queryKey: keys.bookChapters(bookId) });
      return ui.onSuccess?.(saved, ...rest);
    },
    onError: ui.onError,
  });
}

export function useDeleteChapter(bookId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (chapterId: number) => api.delete(`/api/chapters/${chapterId}`),
    // keys.myBooks, which refreshChapters asks again, holds the recently deleted list too.
    onSuccess: () => refreshChapters(client, bookId),
  });
}

// ---- recently deleted chapters (issue 20) ----

export const deletedChaptersQuery = (bookId: number) =>
  queryOptions({
    queryKey: keys.deletedChapters(bookId),
    queryFn: ({ signal }) =>
      api.get<DeletedChaptersResponse>(`/api/books/${bookId}/deleted-chapters`, signal),
  });

/** Puts a deleted chapter back at its place: it leaves this list and joins the chapter lists. */
export function useRestoreDeletedChapter(bookId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (chapterId: number) =>
      api.post<Chapter>(`/api/books/${bookId}/deleted-chapters/${chapterId}/restore`),
    // keys.myBooks, which refreshChapters asks again, holds the recently deleted list too.
    onSuccess: () => refreshChapters(client, bookId),
  });
}
