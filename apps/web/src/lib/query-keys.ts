/**
 * Every TanStack Query key of the app, in one list: queries read with these keys and writes
 * invalidate with them, so no key is spelled twice. Keys nest: invalidating a prefix refreshes
 * everything under it (`books` every public view of books, `library` every shelf and entry).
 * What only the signed-in user sees starts with 'my'.
 */
export const keys = {
  // ---- public reads ----
  /** Prefix of every public view of books: lists, search, pages, chapter lists, genres of a book. */
  books: ['books'] as const,
  /** `filter`: the list's filter query as the API gets it (issue 21), '' for none. */
  bookList: (filter: string) => ['books', 'all', filter] as const,
  bookSearch: (q: string, filter: string) => ['books', 'search', q, filter] as const,
  genreBooks: (genre: string, filter: string) => ['books', 'genre', genre, filter] as const,
  book: (id: number) => ['books', id] as const,
  bookChapters: (id: number) => ['books', id, 'chapters'] as const,
  bookGenres: (id: number) => ['books', id, 'genres'] as const,
  /** A book's announcements (issue 20). */
  bookAnnouncements: (id: number) => ['books', id, 'announcements'] as const,
  genres: ['genres'] as const,
  /** Tag suggestions for a typed prefix (issue 21). */
  tags: (prefix: string) => ['tags', prefix] as const,
  chapter: (id: number) => ['chapters', id] as const,
  /** Prefix of every author view: profiles, their books and recent chapters. */
  authors: ['authors'] as const,
  author: (ref: string) => ['authors', ref] as const,
  authorBooks: (authorId: number, filtersOff: boolean) =>
    ['authors', authorId, 'books', filtersOff] as const,
  authorRecentChapters: (authorId: number, filtersOff: boolean) =>
    ['authors', authorId, 'chapters', filtersOff] as const,
  /** Prefix of every chapter's comments (a mute or block changes whose are shown anywhere). */
  allComments: ['comments'] as const,
  /** Prefix of one chapter's comments: its pages (per sort or paragraph), replies and counts. */
  chapterComments: (chapterId: number) => ['comments', chapterId] as const,
  commentList: (chapterId: number, sort: string, paragraph: number | null) =>
    ['comments', chapterId, 'list', sort, paragraph] as const,
  commentReplies: (chapterId: number, commentId: number) =>
    ['comments', chapterId, 'replies', commentId] as const,
  commentCounts: (chapterId: number) => ['comments', chapterId, 'counts'] as const,
  /** Prefix of the home page's lists, which a reader's saved exclusions narrow (issue 21). */
  home: ['home'] as const,
  homeRecent: (filtersOff: boolean) => ['home', 'recent', filtersOff] as const,
  homePopular: (filtersOff: boolean) => ['home', 'popular', filtersOff] as const,
  homeAuthors: (filtersOff: boolean) => ['home', 'authors', filtersOff] as const,
  homeEbooks: (filtersOff: boolean) => ['home', 'ebooks', filtersOff] as const,

  // ---- the signed-in user's own ----
  history: ['my', 'history'] as const,
  follows: ['my', 'follows'] as const,
  isFollowing: (authorId: number) => ['my', 'is-following', authorId] as const,
  /** The books the user follows, with unread counts (issue 19). */
  followedBooks: ['my', 'followed-books'] as const,
  /** The followed books as shown: narrowed by the saved exclusions unless they are off (issue 21). */
  followedBooksShown: (filtersOff: boolean) => ['my', 'followed-books', filtersOff] as const,
  /** The user's block and mute lists (issue 19). */
  blocks: ['my', 'blocks'] as const,
  mutes: ['my', 'mutes'] as const,
  notifications: ['my', 'notifications'] as const,
  readerSettings: ['my', 'reader-settings'] as const,
  /** The reader's saved exclusions (issue 21). */
  myFilters: ['my', 'filters'] as const,
  /** The author's own books and chapter lists: written by the workspace, the editor, imports. */
  myBooks: ['my', 'books'] as const,
  authorChapters: (bookId: number) => ['my', 'books', bookId, 'chapters'] as const,
  /** The author's reader statistics of a book, with one chapter's drop-off (issue 20). */
  bookStats: (bookId: number, chapterId: number | null) =>
    ['my', 'books', bookId, 'stats', chapterId] as const,
  /** Issue 20: a book's recently deleted chapters, and a chapter's kept versions (History). */
  deletedChapters: (bookId: number) => ['my', 'books', bookId, 'deleted-chapters'] as const,
  chapterRevisions: (chapterId: number) => ['my', 'revisions', chapterId] as const,
  chapterRevision: (chapterId: number, revisionId: number) =>
    ['my', 'revisions', chapterId, revisionId] as const,
  /** Shelves and progress: the reader saves the position, the book page and My Library show it. */
  library: ['my', 'library'] as const,
  libraryEntry: (bookId: number) => ['my', 'library', bookId] as const,
  feedToken: ['my', 'feed-token'] as const,
  imports: ['my', 'imports'] as const,
  importJob: (id: number) => ['my', 'imports', id] as const,
  /** Prefix of every notes list; one list is all notes, one book's or one chapter's. */
  notes: ['my', 'notes'] as const,
  notesOf: (filter: { bookId?: number; chapterId?: number }) => ['my', 'notes', filter] as const,

  // ---- the operators' ----
  /** The operators' open reports of comments (the API answers 403/404 to anyone else). */
  adminReports: ['admin', 'reports'] as const,
};
