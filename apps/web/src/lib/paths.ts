import { parseId } from '@inkwell/contract/ids';

/**
 * Where the app lives. The build is made for one BASE_PATH (vite.config.ts), so the base comes from
 * import.meta.env.BASE_URL: '' at the root, '/inkwell' under a prefix. Route paths below are relative
 * to the router's basename; url() and socketUrl() add the base for fetch and WebSocket calls.
 */
export const BASE = import.meta.env.BASE_URL.replace(/\/+$/, '');

export const url = (path: string): string => `${BASE}${path}`;

export function socketUrl(path: string, params: Record<string, string>): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}${BASE}${path}?${new URLSearchParams(params)}`;
}

const seg = (value: string | number) => encodeURIComponent(String(value));

/**
 * The id a route parameter names, read as the API reads ids in paths (contract ids.ts): `/books/16`
 * is book 16, while `/books/0x10`, `/books/016` or `/books/1e1` name no book (NaN, which every
 * page shows as not found) instead of quietly showing book 16 under another address.
 */
export const routeId = (value: string | undefined): number => parseId(value) ?? NaN;

export const paths = {
  landing: '/',
  home: '/home',
  books: '/books',
  /** All books with a tag: where a tag chip leads (issue 21). */
  booksTagged: (tag: string) => `/books?${new URLSearchParams({ tags: tag })}`,
  search: (q: string) => `/books/search?${new URLSearchParams({ q })}`,
  genres: '/books/genres',
  genre: (name: string) => `/books/genres/${seg(name)}`,
  book: (id: number) => `/books/${id}`,
  chapter: (bookId: number, chapterId: number) => `/books/${bookId}/chapters/${chapterId}`,
  /** A chapter opened at a saved paragraph (the reader scrolls to it): "Continue reading". */
  chapterAt: (bookId: number, chapterId: number, paragraph: number) =>
    `/books/${bookId}/chapters/${chapterId}?${new URLSearchParams({ paragraph: String(paragraph) })}`,
  login: (prev?: string) =>
    prev ? `/accounts/login/?${new URLSearchParams({ prev })}` : '/accounts/login',
  signup: '/accounts/signup',
  logout: '/accounts/logout',
  author: (username: string) => `/authors/${seg(username)}`,
  authorBooks: (username: string) => `/authors/${seg(username)}/all`,
  authorChat: (username: string) => `/authors/${seg(username)}/chat`,
  following: '/following',
  settings: (id: number) => `/my/settings/${id}`,
  readHistory: '/my/read-history',
  workspace: '/my/workspace',
  library: '/my/library',
  /** Places on My Library that other pages send people to (RootLayout scrolls to and focuses them). */
  myNotes: '/my/library#my-notes',
  privateFeed: '/my/library#private-feed',
  importBook: '/my/import',
  /** The operators' reports of comments (issue 19). */
  adminReports: '/admin/reports',
} as const;

/** Only same-app paths are followed after login: never another origin or a protocol-relative URL. */
export function safeReturnPath(prev: string | null | undefined): string {
  if (!prev || !prev.startsWith('/') || prev.startsWith('//') || prev.startsWith('/\\'))
    return paths.home;
  if (prev.startsWith('/accounts/')) return paths.home;
  return prev;
}
