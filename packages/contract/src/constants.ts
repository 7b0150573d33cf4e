/**
 * Limits and values that the server enforces and the web app shows: lengths, page sizes, uploads,
 * the reader's settings. The schemas of this package and the server read them from here, and so
 * does the web app, through `@inkwell/contract/constants`. No imports: the web bundle takes this
 * file without zod (whose eval probe the page's CSP refuses).
 */

// ---- accounts and profiles ----
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 30;
/** Letters, digits, `_`, `-` and `.`. */
export const USERNAME_RULE = new RegExp(
  `^[A-Za-z0-9_.-]{${USERNAME_MIN_LENGTH},${USERNAME_MAX_LENGTH}}$`,
);
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;
export const NAME_MAX_LENGTH = 100;
export const BIOGRAPHY_MAX_LENGTH = 10_000;

// ---- books and chapters ----
export const TITLE_MAX_LENGTH = 200;
export const SUMMARY_MAX_LENGTH = 10_000;
/** Books per page of the book list when `limit` is not sent (SPEC section 9). */
export const BOOK_PAGE_SIZE = 10;
/** Search answers a page of this many books unless `limit` asks for more (decision 0015). */
export const SEARCH_PAGE_SIZE = 20;
/** Chapters per page of an author's Recent Work when `limit` is not sent (SPEC section 9). */
export const RECENT_CHAPTERS_PAGE_SIZE = 10;
export const DEFAULT_CHAPTER_CONTENT = '<p>Edit Me!</p>';
export const DEFAULT_CHAPTER_TITLE = 'Untitled Chapter';
/** Upper bound on one chapter's HTML: far above any real chapter, well under the 1 MB body limit. */
export const CONTENT_MAX_LENGTH = 900_000;
/** A book never holds more chapters than this; also bounds a reorder request. */
export const MAX_CHAPTERS_PER_BOOK = 10_000;

// ---- chat ----
/** A chat message larger than this (UTF-8 bytes of its HTML, before sanitizing) is refused. */
export const CHAT_MAX_MESSAGE_BYTES = 8 * 1024;
/**
 * The chat room's query flag (`?acks=1`) by which a client asks for a `{type: "sent"}` frame
 * for each of its messages that reached the room (see ChatSentFrame).
 */
export const CHAT_ACKS_QUERY = 'acks';
/** The server's refusal of a larger one, which the web app also says before sending it. */
export const CHAT_TOO_LARGE_DETAIL = `Message too large: at most ${CHAT_MAX_MESSAGE_BYTES / 1024} KB`;

// ---- uploads ----
/** Covers and avatars: PNG or JPEG (checked by content on the server), at most this many bytes. */
export const IMAGE_UPLOAD_TYPES = ['image/png', 'image/jpeg'] as const;
export const IMAGE_UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
/** Largest file POST /api/imports accepts; larger answers 413. */
export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;

// ---- reading ----
export const FONT_SIZE_MIN = 12;
export const FONT_SIZE_MAX = 32;
export const LINE_WIDTHS = ['narrow', 'medium', 'wide'] as const;
export const READER_THEMES = ['light', 'dark', 'sepia'] as const;
/** The shelves a book can be on; a book is on at most one of them. */
export const SHELF_STATUSES = ['reading', 'want_to_read', 'finished', 'dropped'] as const;
export const NOTE_BODY_MAX_LENGTH = 10_000;
export const NOTE_QUOTE_MAX_LENGTH = 2_000;

/** Issue 19, comments: a body's longest raw length (before sanitizing), and the page sizes. */
export const COMMENT_MAX_LENGTH = 10_000;
export const COMMENT_PAGE_SIZE = 20;
export const COMMENT_PAGE_MAX = 100;
/** How a chapter's comments may be sorted (`?sort=`); the first is the default. */
export const COMMENT_SORTS = ['newest', 'oldest'] as const;
/** A reader's report of a comment: its reason's longest length. */
export const REPORT_REASON_MAX_LENGTH = 1_000;
/** A chapter's author gets at most one live COMMENT toast per chapter in this long. */
export const COMMENT_TOAST_INTERVAL_MS = 60_000;

// Issue 21: what a book carries beyond the spec, and the filters over it.
/** A book's audience rating; the first is the default. */
export const BOOK_RATINGS = ['general', 'teen', 'mature', 'explicit'] as const;
/** Where a serial stands; the first is the default (issue 20 shows it, issue 21 filters on it). */
export const BOOK_STATUSES = ['ongoing', 'completed', 'hiatus', 'dropped'] as const;
export const BOOK_TAGS_MAX = 20;
export const TAG_MAX_LENGTH = 50;
/** Tag suggestions one GET /api/tags answers. */
export const TAG_SUGGESTIONS_MAX = 10;
/**
 * The fixed list of content warnings, by id. The ids are what requests and answers carry; the
 * names are what readers see.
 */
export const CONTENT_WARNINGS = [
  { id: 'graphic-violence', name: 'Graphic violence' },
  { id: 'major-character-death', name: 'Major character death' },
  { id: 'sexual-content', name: 'Sexual content' },
  { id: 'self-harm', name: 'Self-harm' },
  { id: 'abuse', name: 'Abuse' },
  { id: 'no-warnings', name: 'Author chose not to use warnings' },
] as const;
export type ContentWarningId = (typeof CONTENT_WARNINGS)[number]['id'];
export const CONTENT_WARNING_IDS = CONTENT_WARNINGS.map((w) => w.id) as [
  ContentWarningId,
  ...ContentWarningId[],
];
/** Orders of GET /api/books (and genre lists); search also takes 'relevance', its default. */
export const BOOK_SORTS = ['updated', 'new', 'popular', 'words', 'followers'] as const;
export const SEARCH_SORTS = ['relevance', ...BOOK_SORTS] as const;
/** Saved exclusions: how many of each a reader may keep. */
export const FILTER_LIST_MAX = 200;
/**
 * Set on a list answer when the viewer's saved exclusions removed books from it: how many. The
 * spec's lists are JSON arrays, so the count travels beside the body rather than in it.
 */
export const FILTERED_HIDDEN_HEADER = 'x-filtered-hidden';
/** How many books a hidden count says at most: counting further would cost every request more. */
export const HIDDEN_COUNT_MAX = 1000;

// Issue 20: who keeps reading (docs/decisions/0034-reader-stats.md).
/** A chapter or paragraph figure computed from fewer readers than this is not shown (null). */
export const STATS_PRIVACY_FLOOR = 5;
/** Days the followers series of GET /api/my/books/{id}/stats covers, today included (UTC). */
export const STATS_FOLLOWER_DAYS = 90;
/** The browser-session id a visitor's view beacon carries: random, URL-safe, this long at most. */
export const VIEW_SESSION_MAX_LENGTH = 64;

// Issue 20: scheduled releases, author's notes and announcements.
/** An author's note before or after a chapter: its longest raw length (before sanitizing). */
export const AUTHOR_NOTE_MAX_LENGTH = 20_000;
/** The book page's schedule line the author writes ("New chapters every Tuesday and Friday"). */
export const SCHEDULE_NOTE_MAX_LENGTH = 200;
export const ANNOUNCEMENT_TITLE_MAX_LENGTH = 200;
/** An announcement's body: its longest raw length (before sanitizing). */
export const ANNOUNCEMENT_BODY_MAX_LENGTH = 20_000;
/** The newest this many announcements of a book are listed on its page and in its feed. */
export const ANNOUNCEMENTS_LIST_MAX = 50;

/**
 * Issue 20, "Every version kept": how a chapter's saved versions are kept (docs/decisions/0033).
 * Every version of the last REVISIONS_KEEP_ALL_HOURS; then the newest of each hour up to
 * REVISIONS_HOURLY_DAYS; then the newest of each day; every published version forever.
 */
export const REVISION_KINDS = ['autosave', 'save', 'publish', 'restore', 'import'] as const;
export type RevisionKind = (typeof REVISION_KINDS)[number];
export const REVISIONS_KEEP_ALL_HOURS = 48;
export const REVISIONS_HOURLY_DAYS = 30;
/** A deleted chapter can be restored (with its versions) for this many days. */
export const DELETED_CHAPTER_DAYS = 30;
/** Most versions one GET /api/chapters/{id}/revisions answers (older ones: `?before=`). */
export const REVISIONS_LIST_LIMIT = 500;
