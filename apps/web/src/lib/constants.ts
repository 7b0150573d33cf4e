/**
 * Business constants of SPEC section 9 that only the web app uses. Times are milliseconds. Those
 * the server enforces too (page sizes, lengths, upload types) are in `@inkwell/contract/constants`.
 */
export const NEXT_PAGE_VISIBILITY = 0.8;
export const RECENT_BOOKS_SHOWN = 10;
export const POPULAR_BOOKS_SHOWN = 3;
/** Completed books offered as e-books on the home page. */
export const EBOOKS_SHOWN = 4;
export const HISTORY_RECORD_AFTER_MS = 60_000;
export const AUTOSAVE_DELAY_MS = 5_000;
export const EDITOR_UNDO_DEPTH = 100;
export const EDITOR_UNDO_GROUP_MS = 500;
export const DEFAULT_TOAST_MS = 5_000;
export const SIGNUP_TOAST_MS = 2_500;
export const FOLLOW_FAILURE_TOAST_MS = 10_000;
export const CHAPTER_NOTIFICATION_TOAST_MS = 10_000;
export const FOLLOW_NOTIFICATION_TOAST_MS = 5_000;
export const TOAST_FADE_BEFORE_MS = 500;
export const REDIRECT_AFTER_SIGNUP_MS = 1_500;
export const REDIRECT_AFTER_LOGOUT_MS = 1_000;
export const SIDEBAR_AUTO_CLOSE_WIDTH = 768;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
export const AVATAR_FALLBACK_SIZE = 512;
export const TITLE_INPUT_FONT_SIZE = 25;
export const SUMMARY_MIN_HEIGHT = 22;

/**
 * The genre palette: 23 colours assigned by position. Each is dark enough for white text
 * (contrast of at least 4.5:1) so the boxes read well in every theme.
 */
const GENRE_PALETTE = [
  '#b3261e',
  '#a4373a',
  '#8e24aa',
  '#6a1b9a',
  '#4527a0',
  '#283593',
  '#1565c0',
  '#0d5f8a',
  '#00695c',
  '#2e7d32',
  '#3c6e1f',
  '#5d6b12',
  '#8a5a00',
  '#a0460a',
  '#bf360c',
  '#6d4c41',
  '#4e5b63',
  '#37474f',
  '#ad1457',
  '#7b1fa2',
  '#00766c',
  '#1b5e20',
  '#3e2723',
] as const;

export const genreColor = (index: number): string => GENRE_PALETTE[index % GENRE_PALETTE.length]!;
