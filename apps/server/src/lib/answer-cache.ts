import zlib from 'node:zlib';

/**
 * How answers are compressed for clients that accept gzip, kept or not: one level for both.
 * Level 1: a chapter's JSON (14 KB) comes out 6 % larger than at zlib's default 6, for 40 % less
 * of the event loop's time, which an answer not kept spends on every request.
 */
export const gzip = (body: string | Buffer): Buffer => zlib.gzipSync(body, { level: 1 });

/** Answers of at least this many bytes go gzipped to clients that accept it, and are kept so. */
export const COMPRESS_FROM_BYTES = 1024;

/** Whether a body is sent gzipped to clients that accept it (and kept gzipped): its bytes. */
export const compressible = (body: string | Buffer): boolean =>
  (typeof body === 'string' ? Buffer.byteLength(body) : body.length) >= COMPRESS_FROM_BYTES;

/** A public answer as it was computed, before it is kept. */
export interface AnswerToKeep {
  /** The request URL it answers, path and query as the client sent them. */
  key: string;
  /** The route pattern (/api/chapters/:id), for metrics and logs. */
  route: string;
  /**
   * A part of what visitors see that changes on its own (`comments`): a change there drops only
   * the answers of its scope (`invalidateScope`); any other change drops them too.
   */
  scope?: string;
  /** Header names and values, flat ([name, value, name, value, ...]), without per-request ones. */
  headers: string[];
  body: Buffer;
  etag: string;
}

/**
 * A public answer kept as the bytes that are sent, with what is needed to send it again. A body of
 * COMPRESS_FROM_BYTES or more is kept gzipped: that is what every browser is sent, and at a third
 * of the size (a chapter's 16 KB of JSON is 5–6 KB) the same memory keeps three times the
 * answers. Its plain copy is made only if a client without gzip asks (`plainBody`).
 */
export interface CachedAnswer extends Omit<AnswerToKeep, 'body'> {
  /** The body as kept: gzipped when `compressed`, else as sent. */
  stored: Buffer;
  compressed: boolean;
  /** A compressed answer's plain body, once a client without gzip asked for it. */
  plain?: Buffer;
  storedAt: number;
}

export interface AnswerCacheOptions {
  /** Bytes of bodies kept at most, as kept (gzipped or not); the oldest answers leave first. */
  maxBytes: number;
  /** An answer older than this is not used, whatever happened: the bound on staleness when a
   * change was missed (another process's write while the event bus was down). */
  maxAgeMs: number;
  now?: () => number;
}

/**
 * The answers of public reads, by URL, valid until anything changes.
 *
 * Validity is one number, the generation: every change that a reader could see (any successful
 * write request, here or, through the event bus, on another process) starts a new generation and
 * drops every kept answer, or, for a change of one scope (comments), the answers of that scope.
 * An answer is kept only if no change that concerns it happened while it was being computed: the
 * caller notes the generation when the request arrives and hands it back when storing, and an
 * answer computed before such a change is thrown away. So a kept answer never holds data older
 * than the last change this process heard of.
 */
export class AnswerCache {
  private answers = new Map<string, CachedAnswer>();
  private bytes = 0;
  private currentGeneration = 0;
  /** The generation the last change of everything started, and the last change of each scope. */
  private everythingChangedAt = 0;
  private scopeChangedAt = new Map<string, number>();
  private readonly now: () => number;
  /** Lookups that found a current answer, and those that did not (for the metrics). */
  hits = 0;
  misses = 0;
  private readonly options: AnswerCacheOptions;

  constructor(options: AnswerCacheOptions) {
    this.options = options;
    this.now = options.now ?? Date.now;
  }

  get enabled(): boolean {
    return this.options.maxBytes > 0;
  }

  /** The generation a request belongs to: note it when the request arrives. */
  get generation(): number {
    return this.currentGeneration;
  }

  /** Something readers see may have changed: every kept answer goes. */
  invalidate(): void {
    this.everythingChangedAt = ++this.currentGeneration;
    if (this.answers.size > 0) this.answers = new Map();
    this.bytes = 0;
  }

  /**
   * Something of one scope changed (a chapter's comments): the answers of that scope go, the
   * others stay (a comment leaves chapter reads and book lists as they were).
   */
  invalidateScope(scope: string): void {
    this.scopeChangedAt.set(scope, ++this.currentGeneration);
    for (const [key, answer] of this.answers) if (answer.scope === scope) this.drop(key, answer);
  }

  get(key: string): CachedAnswer | undefined {
    const answer = this.answers.get(key);
    if (answer && this.now() - answer.storedAt > this.options.maxAgeMs) this.drop(key, answer);
    else if (answer) {
      this.hits++;
      return answer;
    }
    this.misses++;
    return undefined;
  }

  /**
   * Keeps an answer computed by a request that arrived in `arrivalGeneration`, if still current,
   * and answers the kept entry (whose gzipped bytes that request can send).
   */
  set(answer: AnswerToKeep, arrivalGeneration: number): CachedAnswer | undefined {
    if (!this.enabled || arrivalGeneration < this.everythingChangedAt) return undefined;
    if (
      answer.scope !== undefined &&
      arrivalGeneration < (this.scopeChangedAt.get(answer.scope) ?? 0)
    )
      return undefined;
    const { body, ...rest } = answer;
    const compressed = compressible(body);
    const stored = compressed ? gzip(body) : body;
    if (stored.length > this.options.maxBytes / 4) return undefined;
    const previous = this.answers.get(answer.key);
    if (previous) this.drop(answer.key, previous);
    const kept: CachedAnswer = { ...rest, stored, compressed, storedAt: this.now() };
    this.answers.set(answer.key, kept);
    this.bytes += stored.length;
    this.evictOverBudget();
    return kept;
  }

  /** A kept answer's body as computed, for a client that does not accept gzip: inflated once. */
  plainBody(answer: CachedAnswer): Buffer {
    if (!answer.compressed) return answer.stored;
    if (!answer.plain) {
      answer.plain = zlib.gunzipSync(answer.stored);
      // Only if it is still kept: a dropped answer's copy leaves with it.
      if (this.answers.get(answer.key) === answer) {
        this.bytes += answer.plain.length;
        this.evictOverBudget();
      }
    }
    return answer.plain;
  }

  get size(): number {
    return this.answers.size;
  }

  get storedBytes(): number {
    return this.bytes;
  }

  private drop(key: string, answer: CachedAnswer): void {
    this.answers.delete(key);
    this.bytes -= answer.stored.length + (answer.plain?.length ?? 0);
  }

  private evictOverBudget(): void {
    // A Map iterates in insertion order: the first entries are the oldest.
    for (const [key, answer] of this.answers) {
      if (this.bytes <= this.options.maxBytes) break;
      this.drop(key, answer);
    }
  }
}
