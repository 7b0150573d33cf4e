import type { Generated } from 'kysely';
import type { BOOK_RATINGS, BOOK_STATUSES, ContentWarningId } from '@inkwell/contract/constants';

type BookRating = (typeof BOOK_RATINGS)[number];
type BookStatus = (typeof BOOK_STATUSES)[number];

/**
 * Table types shared by both engines. Column types are chosen to read back identically:
 * integer ids, timestamps as ISO-8601 UTC text, booleans as 0/1 integers (converted in
 * `lib/convert.ts`), never engine-specific types in application code.
 */
export type Flag = 0 | 1;

export interface UsersTable {
  id: Generated<number>;
  username: string;
  username_lower: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  biography: string;
  avatar: string | null;
  email: string;
  twitter_link: string;
  facebook_link: string;
  instagram_link: string;
  reader_settings: string | null;
  /** Set when an operator suspended the account (issue 19): it cannot sign in. */
  suspended_at: Generated<string | null>;
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: string;
  expires_at: string;
}

export interface BooksTable {
  id: Generated<number>;
  author_id: number;
  title: string;
  summary: string;
  cover: string | null;
  is_published: Flag;
  published_at: string | null;
  /** Distinct readers in read history, kept by triggers (migration 0004); ranks popular books. */
  reader_count: Generated<number>;
  /** No new comments on any chapter of the book; existing ones stay readable. */
  comments_locked: Generated<Flag>;
  /** Issue 20: the book page shows when the next scheduled chapter comes out. */
  show_next_release: Generated<Flag>;
  /** Issue 20: the author's schedule line for the book page; '' when none. */
  schedule_note: Generated<string>;
  created_at: string;
  updated_at: string;
  // Issue 21 (migration 0015). words, follower_count and chapter_published_at are kept by triggers.
  rating: Generated<BookRating>;
  status: Generated<BookStatus>;
  /** Words of the book's published chapters. */
  words: Generated<number>;
  follower_count: Generated<number>;
  /** When one of its chapters was last first published ('' when none): "recently updated". */
  chapter_published_at: Generated<string>;
}

export interface GenresTable {
  id: Generated<number>;
  name: string;
}

export interface BookGenresTable {
  book_id: number;
  genre_id: number;
}

export interface ChaptersTable {
  id: Generated<number>;
  book_id: number;
  title: string;
  /** Sanitized HTML; its plain text is derived from it where needed (decision 0039). */
  content: string;
  word_count: number;
  chapter_order: number;
  is_published: Flag;
  /** Set the first time the chapter is published; never cleared, so re-publishing is not news. */
  first_published_at: string | null;
  /** Bumped on every change of title or content; editors send it back to detect stale saves. */
  version: Generated<number>;
  /** No new comments on this chapter; existing ones stay readable. */
  comments_locked: Generated<Flag>;
  /** Issue 20: when the first publication is scheduled; null when it is not. */
  publish_at: Generated<string | null>;
  /** Issue 20: the author's notes, sanitized HTML outside `content` (so never counted or indexed). */
  note_before: Generated<string>;
  note_after: Generated<string>;
  /**
   * The kind of version (issue 20) the last write of title or content kept: a write that sets
   * it keeps one, through a trigger (migration 0017).
   */
  save_kind: Generated<string | null>;
  created_at: string;
  updated_at: string;
}

export interface ReadHistoryTable {
  id: Generated<number>;
  user_id: number;
  book_id: number;
  chapter_id: number;
  read_at: string;
}

export interface FollowsTable {
  follower_id: number;
  author_id: number;
  created_at: string;
}

/** One searchable document per book: title, summary, author names and genre names. */
export interface BookSearchTable {
  book_id: number;
  document: string;
}

/**
 * Chapters whose text or publication changed since the search index last saw them, one row per
 * change (migration 0009); the search indexer takes them, oldest first.
 */
export interface SearchPendingTable {
  id: Generated<number>;
  chapter_id: number;
}

/** Books whose search document (title, summary, author names, genres) changed (migration 0011). */
export interface SearchPendingBooksTable {
  id: Generated<number>;
  book_id: number;
}

/** The inbox: one row per recipient and notification. */
export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  type: 'CHAPTER' | 'FOLLOW' | 'COMMENT' | 'REPLY' | 'ANNOUNCEMENT';
  message: string;
  book_id: number | null;
  chapter_id: number | null;
  /** The follower's username, for FOLLOW. */
  follower: string | null;
  /** The comment, for COMMENT and REPLY. */
  comment_id: Generated<number | null>;
  /** The announcement, for ANNOUNCEMENT (issue 20). */
  announcement_id: Generated<number | null>;
  is_read: Generated<Flag>;
  created_at: string;
}

/** A book on a reader's shelf or marked owned; status null means "on no shelf". */
export interface LibraryEntriesTable {
  user_id: number;
  book_id: number;
  status: 'reading' | 'want_to_read' | 'finished' | 'dropped' | null;
  owned: Flag;
  created_at: string;
  updated_at: string;
}

/** Where a reader stopped in a book. */
export interface ReadingPositionsTable {
  user_id: number;
  book_id: number;
  chapter_id: number;
  paragraph: number;
  char_offset: number;
  updated_at: string;
}

/** A private note on a book, or on a paragraph of one of its chapters. */
export interface NotesTable {
  id: Generated<number>;
  user_id: number;
  book_id: number;
  chapter_id: number | null;
  paragraph: number | null;
  quote: string | null;
  body: string;
  created_at: string;
  updated_at: string;
}

export interface ImportJobsTable {
  id: Generated<number>;
  user_id: number;
  status: 'queued' | 'running' | 'done' | 'failed';
  /** Per mille (0..1000), so it reads back as an integer on both engines. */
  progress: number;
  message: string;
  filename: string;
  format: 'epub' | 'docx' | 'markdown' | 'html' | 'text';
  keep_front_matter: Flag;
  book_id: number | null;
  chapter_count: number | null;
  source_title: string | null;
  source_author: string | null;
  /** JSON array of strings. */
  warnings: string;
  /** The server process running the job; its heartbeat_at goes stale when that process dies. */
  runner: string;
  heartbeat_at: string;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** The secret of a reader's private Atom feed, stored as a SHA-256 hash. */
export interface FeedTokensTable {
  user_id: number;
  token_hash: string;
  created_at: string;
}

/** A single-use ticket to open one WebSocket for a session (migration 0010). */
export interface SocketTicketsTable {
  ticket_hash: string;
  session_id: number;
  expires_at: string;
}

/** A processed image, by its content-addressed name (migration 0012; UPLOAD_STORE=database). */
export interface UploadsTable {
  name: string;
  content_type: string;
  bytes: Buffer;
  size: number;
  created_at: string;
}

/** A periodic job's lease, so that it runs once per interval across processes (migration 0013). */
export interface JobLeasesTable {
  name: string;
  holder: string;
  started_at: string;
  lease_until: string;
  runs: Generated<number>;
}

/** A reader follows a book (issue 19), besides the spec's follows of authors. */
export interface BookFollowsTable {
  user_id: number;
  book_id: number;
  created_at: string;
}

/**
 * A comment on a chapter, or on one of its paragraphs (0-based block index). Replies are one
 * level deep: parent_id is always a top-level comment. A deleted comment that has replies stays
 * with deleted = 1 and an empty body. like_count and reply_count are kept with each write.
 */
export interface CommentsTable {
  id: Generated<number>;
  chapter_id: number;
  book_id: number;
  user_id: number;
  parent_id: number | null;
  paragraph: number | null;
  body: string;
  deleted: Generated<Flag>;
  like_count: Generated<number>;
  reply_count: Generated<number>;
  created_at: string;
  edited_at: string | null;
}

export interface CommentLikesTable {
  user_id: number;
  comment_id: number;
  created_at: string;
}

export interface ChapterLikesTable {
  user_id: number;
  chapter_id: number;
  created_at: string;
}

export interface CommentReportsTable {
  id: Generated<number>;
  comment_id: number;
  reporter_id: number;
  reason: string;
  created_at: string;
  /** When an operator dealt with the report; null while it is open. */
  resolved_at: string | null;
}

/** Issue 20: a post on a book that is not a chapter; body is sanitized HTML. */
export interface AnnouncementsTable {
  id: Generated<number>;
  book_id: number;
  title: string;
  body: string;
  created_at: string;
}

/** An author (or anyone) blocks a user: see issue 19, "The author in control". */
export interface UserBlocksTable {
  blocker_id: number;
  blocked_id: number;
  created_at: string;
}

/** A mute hides the muted user's comments and chat lines from the muter only. */
export interface UserMutesTable {
  muter_id: number;
  muted_id: number;
  created_at: string;
}

/** A follow (+1) or unfollow (-1) of a book, written by triggers (migration 0018): the daily series. */
export interface BookFollowChangesTable {
  id: Generated<number>;
  book_id: number;
  delta: number;
  changed_at: string;
}

/** A visitor's browser session saw a chapter (issue 20): kept once per chapter and session. */
export interface ChapterViewsTable {
  chapter_id: number;
  session: string;
  viewed_at: string;
}

/** A kept version of a chapter (issue 20, migration 0017); see revisions/revision-codec.ts. */
export interface ChapterRevisionsTable {
  id: Generated<number>;
  chapter_id: number;
  book_id: number;
  created_at: string;
  kind: string;
  words: number;
  published: Generated<Flag>;
  title: string;
  /** As saved, until the scheduled job packs it. */
  content: string | null;
  /** Deflated whole content (base_id null) or delta against base_id. */
  packed: Buffer | null;
  base_id: number | null;
}

/** A chapter its author deleted, as it was, restorable for 30 days (issue 20, migration 0017). */
export interface DeletedChaptersTable {
  id: number;
  book_id: number;
  title: string;
  content: string;
  word_count: number;
  chapter_order: number;
  is_published: Flag;
  first_published_at: string | null;
  version: number;
  comments_locked: Flag;
  created_at: string;
  updated_at: string;
  note_before: string;
  note_after: string;
  deleted_at: string;
}

/** Issue 21: a tag as first spelled on the site; `key` is its lower case, unique. */
export interface TagsTable {
  id: Generated<number>;
  name: string;
  key: string;
}

export interface BookTagsTable {
  book_id: number;
  tag_id: number;
  position: number;
}

export interface BookWarningsTable {
  book_id: number;
  warning: ContentWarningId;
}

/** A reader's saved exclusions (issue 21): JSON arrays; muted authors by user id. */
export interface SavedFiltersTable {
  user_id: number;
  exclude_tags: string;
  exclude_warnings: string;
  exclude_ratings: string;
  muted_author_ids: string;
  updated_at: string;
}

export interface Schema {
  users: UsersTable;
  sessions: SessionsTable;
  books: BooksTable;
  genres: GenresTable;
  book_genres: BookGenresTable;
  chapters: ChaptersTable;
  read_history: ReadHistoryTable;
  follows: FollowsTable;
  book_search: BookSearchTable;
  search_pending: SearchPendingTable;
  search_pending_books: SearchPendingBooksTable;
  notifications: NotificationsTable;
  library_entries: LibraryEntriesTable;
  reading_positions: ReadingPositionsTable;
  notes: NotesTable;
  import_jobs: ImportJobsTable;
  feed_tokens: FeedTokensTable;
  socket_tickets: SocketTicketsTable;
  uploads: UploadsTable;
  job_leases: JobLeasesTable;
  book_follows: BookFollowsTable;
  comments: CommentsTable;
  comment_likes: CommentLikesTable;
  chapter_likes: ChapterLikesTable;
  comment_reports: CommentReportsTable;
  user_blocks: UserBlocksTable;
  user_mutes: UserMutesTable;
  book_follow_changes: BookFollowChangesTable;
  chapter_views: ChapterViewsTable;
  announcements: AnnouncementsTable;
  chapter_revisions: ChapterRevisionsTable;
  deleted_chapters: DeletedChaptersTable;
  tags: TagsTable;
  book_tags: BookTagsTable;
  book_warnings: BookWarningsTable;
  saved_filters: SavedFiltersTable;
}
