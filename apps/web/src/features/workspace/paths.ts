import { paths } from '../../lib/paths.ts';

/** Addresses inside the workspace, relative to the router's basename. */
export const workspacePaths = {
  home: paths.workspace,
  book: (bookId: number) => `${paths.workspace}/books/${bookId}`,
  chapter: (bookId: number, chapterId: number) =>
    `${paths.workspace}/books/${bookId}/chapters/${chapterId}`,
  /** Who keeps reading (issue 20). */
  stats: (bookId: number) => `${paths.workspace}/books/${bookId}/stats`,
};
