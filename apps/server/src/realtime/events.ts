/** Domain events, published by services after their transaction commits. */
export type DomainEvent =
  | {
      type: 'chapter.published';
      authorId: number;
      authorUsername: string;
      bookId: number;
      bookTitle: string;
      chapterId: number;
      chapterTitle: string;
      /**
       * The followers whose inbox rows were written in the publishing transaction (so that a
       * process ending between its commit and this event loses no notification): told live only.
       */
      inboxWritten?: number[];
    }
  /** Issue 20: an announcement on a published book; its followers and the author's hear of it. */
  | {
      type: 'announcement.posted';
      authorId: number;
      authorUsername: string;
      bookId: number;
      bookTitle: string;
      announcementId: number;
      title: string;
      /** As for a chapter: the inbox rows written with the announcement, told live only. */
      inboxWritten?: number[];
    }
  | { type: 'author.followed'; authorId: number; followerId: number; followerUsername: string }
  | {
      type: 'chat.message';
      room: string;
      user: string;
      /** The member who said it (absent on the room's own notes): mutes hide lines by id. */
      userId?: number;
      message: string;
      /** Set by the chat endpoint so a joining member can drop a line it already got from history. */
      id?: string;
      /** A note of the room itself (join, leave), sent as a system frame, never as a member's line. */
      system?: true;
    }
  /**
   * Sessions ended on purpose (logout, password change), published after the rows are gone:
   * every process closes the sockets opened with them. Expiry needs no event (session-sockets.ts).
   */
  | { type: 'sessions.ended'; sessionIds: number[] }
  /**
   * Something visitors see of a book changed: its title, summary, cover or genres, its
   * publication, or a published chapter of it (text, title, order, publication, deletion).
   * Drafts changing inside a draft book publish nothing.
   */
  | { type: 'book.changed'; bookId: number }
  /** An author's public profile changed: names, username, biography, links or avatar. */
  | { type: 'author.changed'; authorId: number }
  /** The search indexer changed the index: a search may now answer differently. */
  | { type: 'search.indexed' }
  /**
   * A user put someone on their block or mute list, or took them off (issue 19), after the
   * write: every process applies it to the chat sockets it holds at once (a mute hides the
   * muted user's lines from the muter's sockets; a block closes the blocked user's sockets in
   * the blocker's room with 4403).
   */
  | {
      type: 'user.listed';
      kind: 'block' | 'mute';
      ownerId: number;
      userId: number;
      listed: boolean;
    }
  /**
   * A chapter's comments changed (a comment written, edited or deleted): cached comment reads are
   * out of date (a block drops them too, through `user.listed`). Likes publish nothing (their
   * counts in visitors' cached answers are at most READ_CACHE_MAX_AGE_SECONDS old).
   */
  | { type: 'comments.changed'; chapterId: number }
  /**
   * A new comment that notifies (issue 19): COMMENT to the book's author for a top-level comment,
   * REPLY to the people of the thread. The comments service decides who (never the writer, nor
   * anyone who blocked or muted them): `inbox` get a row each, `live` (some of them) a toast
   * too. `excerpt` is the comment's text with its spoilers hidden, already shortened.
   */
  | {
      type: 'comment.posted';
      kind: 'COMMENT' | 'REPLY';
      commentId: number;
      bookId: number;
      chapterId: number;
      chapterTitle: string;
      writerUsername: string;
      excerpt: string;
      inbox: number[];
      live: number[];
    };

/** What the bus carries between processes. */
export interface Envelope {
  /** The process that published (one id per running app). */
  origin: string;
  event: DomainEvent;
  /**
   * For events that notify users: everyone whose inbox got the notification, decided once on
   * the publishing process. Other processes push to these users' sockets without asking the
   * database again, so the live push and the inbox always name the same people.
   */
  recipients?: number[];
  /** When the publishing process handed the envelope on (epoch ms), for the event-bus lag metric. */
  sentAt?: number;
}

export type EventHandler = (event: DomainEvent, envelope: Envelope) => void;

export interface EventBus {
  /** This process's id, carried as `origin` by everything it publishes. */
  readonly origin: string;
  /**
   * Hands the event to every process (this one included). Never rejects: the caller's own work
   * is already committed, and a delivery failure is logged, not turned into an HTTP error.
   */
  publish(event: DomainEvent): Promise<void>;
  subscribe(handler: EventHandler): () => void;
  /**
   * Runs `handler` on this process, synchronously, whenever a service here publishes, before
   * the event leaves it: for state that must change before the writer hears back (the answer
   * cache), where `subscribe` would wait for the transport's round trip.
   */
  observe(handler: (event: DomainEvent) => void): () => void;
  /**
   * Runs `handler` whenever the bus comes back after an outage (Redis unreachable): events sent
   * meanwhile are lost, so whoever keeps state from events re-reads it from the database.
   */
  onResume(handler: () => void): () => void;
  /** Waits for publications in flight, then stops delivering. */
  close(): Promise<void>;
}

/** Moves envelopes between the processes of one deployment: in memory (one process) or Redis. */
export interface EventTransport {
  /** Rejects when the envelope could not be handed on (e.g. Redis is down). */
  send(envelope: Envelope): Promise<void>;
  /** Receives every envelope sent by any process, this one included. */
  onEnvelope(handler: (envelope: Envelope) => void): void;
  /** Called once the transport delivers again after an outage; one that cannot fail omits it. */
  onResume?(handler: () => void): void;
  close(): Promise<void>;
}
