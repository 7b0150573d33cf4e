import type { Chapter } from '@inkwell/contract';
import { isApiError } from '../../lib/api.ts';
import { AUTOSAVE_DELAY_MS } from '../../lib/constants.ts';
import type { DraftStore } from './drafts.ts';

/**
 * Keeps one chapter's text in step with the server, and never loses it.
 *
 * - Every change restarts a 5 s idle timer; when it runs out the text is saved ('auto').
 * - Each save sends the version the text was based on; a 409 means another tab or device saved in
 *   between, and the author chooses between both versions (`resolve`).
 * - While a change is not on the server, a local draft holds it. A failed save keeps the draft and
 *   retries with growing delays (and at once when the browser is back online: `retryNow`).
 * - Saves, renames and publishing run one at a time, so our own writes never look like a conflict.
 *
 * Framework-free: the React hook (useChapterSync) feeds it editor changes and renders its state.
 */
export type SaveKind = 'auto' | 'manual';

export type SyncStatus =
  /** Everything typed is on the server. */
  | 'saved'
  /** Changes wait for the idle timer. */
  | 'dirty'
  | 'saving'
  /** The last save failed; the text is kept locally and a retry may be scheduled. */
  | 'failed'
  /** The server holds a newer version; the author must choose. */
  | 'conflict'
  /** The chapter no longer exists on the server. */
  | 'gone';

export interface SaveFailure {
  /** What the author should know, in words. */
  message: string;
  /** Whether the session ended (a 401): logging in again lets the retry through. */
  signedOut: boolean;
  /** When the next automatic retry happens (epoch ms), or null when none is planned. */
  retryAt: number | null;
}

export interface SyncState {
  status: SyncStatus;
  /** The server version our text is based on. */
  version: number;
  /** updated_at of the last save we made or loaded. */
  savedAt: string;
  failure: SaveFailure | null;
  /** In a conflict: the server's copy (null while it is being fetched or if that failed). */
  theirs: Chapter | null;
  /** False when the browser would not keep a local draft (storage full or disabled). */
  draftKept: boolean;
}

export interface ChapterSyncOptions {
  chapter: Pick<Chapter, 'id' | 'book_id' | 'version' | 'updated_at'>;
  /** The editor's current HTML. Read lazily: only when saving or writing the draft. */
  read(): string;
  /** Puts HTML into the editor without counting it as a change (taking the server's version). */
  replace(html: string): void;
  /** PUT the content with the version it is based on. */
  save(body: { content: string; version: number; autosave?: boolean }): Promise<Chapter>;
  /** GET the chapter as the server has it now. */
  load(): Promise<Chapter>;
  drafts: DraftStore;
  /** After a save went through. */
  onSaved?(kind: SaveKind, chapter: Chapter): void;
  /** After a save failed; `first` is true for the first failure of a streak. */
  onFailed?(failure: SaveFailure, first: boolean): void;
  /** Before retrying after a 401: a chance to pick up a session renewed in another tab. */
  reauthenticate?(): Promise<void>;
  autosaveDelay?: number;
  draftDelay?: number;
  retryDelay?(attempt: number): number;
  now?(): number;
}

/** 1 s, 2 s, 4 s, 8 s, then every 15 s: soon after a blip, and never long after the network returns. */
export const retryDelay = (attempt: number): number =>
  Math.min(15_000, 1_000 * 2 ** Math.max(0, attempt - 1));

/** Failures worth retrying by themselves: the network, the session, an overloaded or failing server. */
const RETRYABLE = (status: number) =>
  status === 0 || status === 401 || status === 408 || status === 429 || status >= 500;

function describeFailure(error: unknown): { message: string; retry: boolean; signedOut: boolean } {
  if (!isApiError(error))
    return { message: 'The chapter could not be saved.', retry: true, signedOut: false };
  if (error.status === 0)
    return { message: 'You appear to be offline.', retry: true, signedOut: false };
  if (error.status === 401)
    return { message: 'Your session has ended.', retry: true, signedOut: true };
  if (error.status === 413)
    return {
      message: 'This chapter is too long to save in one piece.',
      retry: false,
      signedOut: false,
    };
  if (RETRYABLE(error.status))
    return { message: 'The server could not save the chapter.', retry: true, signedOut: false };
  return {
    message: error.detail || 'The chapter could not be saved.',
    retry: false,
    signedOut: false,
  };
}

type Listener = (state: SyncState) => void;

export class ChapterSync {
  private state: SyncState;
  private readonly listeners = new Set<Listener>();
  private readonly opts: Required<
    Pick<ChapterSyncOptions, 'autosaveDelay' | 'draftDelay' | 'retryDelay' | 'now'>
  > &
    ChapterSyncOptions;
  /** The HTML the server has from us (as the editor renders it), to tell real changes apart. */
  private savedHtml: string;
  private autosaveTimer: ReturnType<typeof setTimeout> | null = null;
  private draftTimer: ReturnType<typeof setTimeout> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private attempts = 0;
  /** The write in progress; every write waits for the one before it. */
  private busy: Promise<unknown> = Promise.resolve();
  private saving = false;
  private queuedSave: SaveKind | null = null;
  private disposed = false;
  /**
   * A save that got no answer (the network failed on its way back, perhaps after the server took
   * it): the text and the version it was based on, to tell our own save from another device's.
   */
  private unanswered: { content: string; version: number } | null = null;

  constructor(options: ChapterSyncOptions) {
    this.opts = {
      autosaveDelay: AUTOSAVE_DELAY_MS,
      draftDelay: 400,
      retryDelay,
      now: Date.now,
      ...options,
    };
    this.savedHtml = options.read();
    this.state = {
      status: 'saved',
      version: options.chapter.version,
      savedAt: options.chapter.updated_at,
      failure: null,
      theirs: null,
      draftKept: true,
    };
  }

  get snapshot(): SyncState {
    return this.state;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** True while something typed is not on the server yet (and, once it is deleted, never will be). */
  get hasUnsavedChanges(): boolean {
    if (this.state.status === 'gone') return this.opts.read() !== this.savedHtml;
    return this.state.status !== 'saved';
  }

  /** The editor's text changed. */
  changed(): void {
    if (this.disposed || this.state.status === 'gone') return;
    if (this.state.status === 'saved') this.set({ status: 'dirty' });
    this.scheduleDraft();
    // A planned retry or the author's choice in a conflict drive saving then, not typing.
    const { status } = this.state;
    if (status === 'dirty' || status === 'saving' || (status === 'failed' && !this.retryTimer))
      this.scheduleAutosave();
  }

  /** Saves now: the toolbar's save button ('manual'), or the idle timer ('auto'). */
  save(kind: SaveKind = 'manual'): Promise<void> {
    if (this.disposed || this.state.status === 'gone') return Promise.resolve();
    if (this.state.status === 'conflict') return Promise.resolve();
    this.clearTimer('autosaveTimer');
    this.clearTimer('retryTimer');
    if (this.saving) {
      // One more save after the running one; a manual save is the one to report.
      this.queuedSave = this.queuedSave === 'manual' || kind === 'manual' ? 'manual' : 'auto';
      return this.busy.then(() => undefined);
    }
    this.saving = true;
    return this.exclusive(() => this.put(kind)).finally(() => {
      this.saving = false;
      const next = this.queuedSave;
      this.queuedSave = null;
      if (next && !this.disposed) void this.save(next);
    });
  }

  /** A failed save: try again now (e.g. the browser came back online). */
  retryNow(): void {
    if (this.state.status === 'failed') void this.save('auto');
  }

  /**
   * Runs another write of this chapter (rename, publish) in turn with the saves. `bumpsVersion`
   * says whether it changes the version: when the answer is exactly one ahead of ours, nobody else
   * wrote in between and our text stays current; otherwise the next save meets the conflict.
   */
  async write(run: () => Promise<Chapter>, bumpsVersion: boolean): Promise<Chapter> {
    return this.exclusive(async () => {
      const chapter = await run();
      const expected = this.state.version + (bumpsVersion ? 1 : 0);
      if (chapter.version === expected)
        this.set({ version: chapter.version, savedAt: chapter.updated_at });
      return chapter;
    });
  }

  /** In a conflict or after a reload: which text wins. 'mine' saves ours over the server's copy. */
  async resolve(choice: 'mine' | 'theirs'): Promise<void> {
    const theirs = this.state.theirs;
    if (this.state.status !== 'conflict' || !theirs) return;
    this.set({ version: theirs.version, savedAt: theirs.updated_at, theirs: null });
    if (choice === 'theirs') {
      this.opts.replace(theirs.content);
      this.markClean();
      return;
    }
    this.set({ status: 'dirty' });
    await this.save('manual');
  }

  /** Fetches the server's copy again when a conflict's first fetch failed. */
  async reloadTheirs(): Promise<void> {
    if (this.state.status !== 'conflict') return;
    try {
      this.set({ theirs: await this.opts.load(), failure: null });
    } catch {
      // the failure line stays
    }
  }

  /**
   * Restores a local draft into the editor (the author chose it over the server's copy) and saves
   * it; `taken` runs once this tab's own draft holds the text (the offered one may then go).
   */
  async restore(html: string, taken?: () => void): Promise<void> {
    this.opts.replace(html);
    this.set({ status: 'dirty' });
    this.writeDraft();
    // Not when the browser refused to keep it (storage full): the offered copy is then the only one.
    if (this.state.draftKept) taken?.();
    await this.save('manual');
  }

  /**
   * Writes this tab's draft again if its text is still not on the server: another tab removed it
   * (its author discarded the draft it was offered).
   */
  redraft(): void {
    if (this.disposed || this.state.status === 'saved') return;
    if (this.state.status === 'gone' && !this.hasUnsavedChanges) return;
    this.writeDraft();
  }

  /**
   * Makes the server's copy current by another write (restoring a kept version): unsaved typing
   * is saved first, so it is kept as a version too and nothing is lost silently; then `run`
   * writes, and the editor shows the text it answers. Fails (and changes nothing) when the
   * pending save could not be made.
   */
  async adopt(run: () => Promise<Chapter>): Promise<Chapter> {
    if (!(await this.settle())) throw new Error('the unsaved changes could not be saved');
    return this.exclusive(async () => {
      const chapter = await run();
      this.opts.replace(chapter.content);
      this.set({ version: chapter.version, savedAt: chapter.updated_at });
      this.markClean();
      return chapter;
    });
  }

  /**
   * Saves what is typed but not yet saved, now, and waits for it: before a write that takes the
   * server's text as the author's latest (publishing it, restoring over it). Answers whether all
   * of the editor's text is then on the server; not in a conflict, nor once the chapter is gone.
   */
  async settle(): Promise<boolean> {
    // A save asked for while another runs goes after it: a few rounds see both through.
    for (let round = 0; round < 3 && this.hasUnsavedChanges; round++) {
      const { status } = this.state;
      // A save that failed is not sent again here: its own retries go on with their backoff.
      if (status === 'conflict' || status === 'gone' || (status === 'failed' && round > 0)) break;
      await this.save('manual');
      await this.busy;
    }
    return this.state.status === 'saved';
  }

  /** Called when leaving the page or the editor: keep the draft and send what is pending. */
  flush(): void {
    if (this.disposed) return;
    if (this.draftTimer) {
      this.clearTimer('draftTimer');
      this.writeDraft();
    }
    if (this.state.status === 'dirty') void this.save('auto');
  }

  /** Resolves once the writes under way (and queued behind them) have ended. */
  async whenIdle(): Promise<void> {
    let busy;
    do {
      busy = this.busy;
      await busy;
    } while (busy !== this.busy);
  }

  /** Stops the timers; a save already under way still finishes (and clears its draft). */
  dispose(): void {
    this.flush();
    this.disposed = true;
    this.clearTimer('autosaveTimer');
    this.clearTimer('retryTimer');
    this.clearTimer('draftTimer');
    this.listeners.clear();
  }

  // ---- internals ----

  private set(patch: Partial<SyncState>) {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener(this.state);
  }

  private clearTimer(name: 'autosaveTimer' | 'draftTimer' | 'retryTimer') {
    const timer = this[name];
    if (timer) clearTimeout(timer);
    this[name] = null;
  }

  private scheduleAutosave() {
    this.clearTimer('autosaveTimer');
    this.autosaveTimer = setTimeout(() => {
      this.autosaveTimer = null;
      void this.save('auto');
    }, this.opts.autosaveDelay);
  }

  private scheduleDraft() {
    this.clearTimer('draftTimer');
    this.draftTimer = setTimeout(() => {
      this.draftTimer = null;
      this.writeDraft();
    }, this.opts.draftDelay);
  }

  private writeDraft() {
    const content = this.opts.read();
    if (content === this.savedHtml) {
      this.opts.drafts.clear(this.opts.chapter.id);
      return;
    }
    const kept = this.opts.drafts.write({
      chapterId: this.opts.chapter.id,
      bookId: this.opts.chapter.book_id,
      content,
      baseVersion: this.state.version,
      savedAt: this.opts.now(),
    });
    if (kept !== this.state.draftKept) this.set({ draftKept: kept });
  }

  private markClean() {
    this.savedHtml = this.opts.read();
    this.opts.drafts.clear(this.opts.chapter.id);
    this.attempts = 0;
    this.set({ status: 'saved', failure: null });
  }

  /**
   * Takes the server's newer copy as ours when it is our own unanswered save, exactly one version
   * ahead of it (nobody else wrote): the text typed since is then saved from that version.
   * Answers whether it did.
   */
  private tookAsOurs(theirs: Chapter): boolean {
    const lost = this.unanswered;
    this.unanswered = null;
    if (!lost || theirs.version !== lost.version + 1 || theirs.content !== lost.content)
      return false;
    this.savedHtml = theirs.content;
    this.set({ version: theirs.version, savedAt: theirs.updated_at, status: 'dirty' });
    if (this.opts.read() === this.savedHtml) this.markClean();
    else this.queuedSave ??= 'auto';
    return true;
  }

  private exclusive<T>(run: () => Promise<T>): Promise<T> {
    const result = this.busy.then(run);
    this.busy = result.catch(() => undefined);
    return result;
  }

  private async put(kind: SaveKind): Promise<void> {
    if (this.state.failure?.signedOut) await this.opts.reauthenticate?.().catch(() => undefined);
    const content = this.opts.read();
    this.set({ status: 'saving' });
    try {
      // The server keeps a version of every save and tells autosaves from the author's own.
      const chapter = await this.opts.save({
        content,
        version: this.state.version,
        ...(kind === 'auto' && { autosave: true }),
      });
      this.savedHtml = content;
      this.attempts = 0;
      this.unanswered = null;
      this.set({ version: chapter.version, savedAt: chapter.updated_at, failure: null });
      if (this.opts.read() === content) this.markClean();
      else {
        // Typed during the save: those edits keep their draft and their own idle timer, or go
        // at once if the editor closed meanwhile (its flush found this save under way, and no
        // timer runs after it).
        this.set({ status: 'dirty' });
        this.writeDraft();
        if (this.disposed) void this.exclusive(() => this.put('auto'));
        else if (!this.autosaveTimer) this.scheduleAutosave();
      }
      this.opts.onSaved?.(kind, chapter);
    } catch (error) {
      if (isApiError(error, 0)) this.unanswered ??= { content, version: this.state.version };
      await this.failed(error);
    }
  }

  private async failed(error: unknown) {
    this.writeDraft();
    if (isApiError(error, 409)) {
      this.clearTimer('autosaveTimer');
      this.set({ status: 'conflict', theirs: null, failure: null });
      try {
        const theirs = await this.opts.load();
        if (this.tookAsOurs(theirs)) return;
        this.set({ theirs });
      } catch {
        this.set({
          failure: {
            message: 'The newer version could not be loaded.',
            signedOut: false,
            retryAt: null,
          },
        });
      }
      return;
    }
    if (isApiError(error, 404)) {
      // Deleted (here or elsewhere): there is nothing left to save into.
      this.opts.drafts.clear(this.opts.chapter.id);
      this.set({ status: 'gone', failure: null });
      return;
    }
    const { message, retry, signedOut } = describeFailure(error);
    this.attempts++;
    let retryAt: number | null = null;
    if (retry && !this.disposed) {
      const delay = this.opts.retryDelay(this.attempts);
      retryAt = this.opts.now() + delay;
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        this.retryNow();
      }, delay);
    }
    const failure = { message, signedOut, retryAt };
    this.set({ status: 'failed', failure });
    this.opts.onFailed?.(failure, this.attempts === 1);
  }
}
