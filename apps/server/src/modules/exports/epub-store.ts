import { AppError } from '../../lib/errors.ts';
import { EpubTooLarge } from './build-in-worker.ts';

export interface EpubStoreOptions {
  /** Memory for built EPUBs; the least recently used go first. 0 keeps none. */
  maxBytes: number;
  /** Builds running at once in this process (each in its own worker thread). */
  concurrency: number;
  /** Builds waiting for a turn; beyond, an export is refused with 503 until one starts. */
  maxQueued: number;
}

/** A book's last built EPUB for one audience, or the fact that it is too large to build. */
type Kept =
  { fingerprint: string; bytes: Buffer } | { fingerprint: string; tooLarge: EpubTooLarge };

/**
 * The EPUBs this process has built, so that exporting a book again costs nothing until the book
 * changes. `key` names a book for one audience (its readers, or its author with the drafts: the
 * two never share an entry); `fingerprint` is everything the file is made from, so a change to
 * any of it is a new file, and the old one is dropped. Requests for a file being built wait for
 * that build instead of starting their own, and a few builds run at once, the others queued.
 */
export class EpubStore {
  private readonly kept = new Map<string, Kept>();
  private keptBytes = 0;
  private readonly building = new Map<string, Promise<Buffer>>();
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly options: EpubStoreOptions;
  /** EPUBs built by this process since it started (a build whose result was kept or not). */
  builds = 0;

  constructor(options: EpubStoreOptions) {
    this.options = options;
  }

  /** The EPUB for `key` as of `fingerprint`: kept, being built, or built now by `build`. */
  async get(key: string, fingerprint: string, build: () => Promise<Buffer>): Promise<Buffer> {
    const kept = this.kept.get(key);
    if (kept?.fingerprint === fingerprint) {
      // Most recently used last: the map's order is what to drop first.
      this.kept.delete(key);
      this.kept.set(key, kept);
      if ('tooLarge' in kept) throw kept.tooLarge;
      return kept.bytes;
    }
    const id = `${key}\n${fingerprint}`;
    let pending = this.building.get(id);
    if (!pending) {
      pending = this.buildInTurn(key, fingerprint, build).finally(() => this.building.delete(id));
      this.building.set(id, pending);
    }
    return pending;
  }

  private async buildInTurn(
    key: string,
    fingerprint: string,
    build: () => Promise<Buffer>,
  ): Promise<Buffer> {
    await this.turn();
    try {
      this.builds++;
      const bytes = await build();
      this.keep(key, { fingerprint, bytes });
      return bytes;
    } catch (error) {
      if (error instanceof EpubTooLarge) this.keep(key, { fingerprint, tooLarge: error });
      throw error;
    } finally {
      // The place goes to the next build waiting, if any, else it is free.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  /** Resolves when a build may start (and counts it as running). */
  private async turn(): Promise<void> {
    if (this.running < this.options.concurrency) {
      this.running++;
      return;
    }
    if (this.waiting.length >= this.options.maxQueued) {
      throw new AppError(
        'unavailable',
        'The server is busy building other exports; please try again in a minute',
        { 'retry-after': '60' },
      );
    }
    // A build that ends hands its place over: `running` stays as it is.
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private keep(key: string, entry: Kept): void {
    this.forget(key);
    const size = 'bytes' in entry ? entry.bytes.length : 0;
    if (size > this.options.maxBytes) return;
    this.kept.set(key, entry);
    this.keptBytes += size;
    for (const oldest of this.kept.keys()) {
      if (this.keptBytes <= this.options.maxBytes) break;
      this.forget(oldest);
    }
  }

  private forget(key: string): void {
    const entry = this.kept.get(key);
    if (!entry) return;
    if ('bytes' in entry) this.keptBytes -= entry.bytes.length;
    this.kept.delete(key);
  }
}
