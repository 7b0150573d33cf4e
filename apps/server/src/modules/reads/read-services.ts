import type { ReadContext } from '../../context.ts';
import { listBooks, listBooksInGenre } from '../books/books.service.ts';
import { searchBooks } from '../search/search.service.ts';

/**
 * The reads that may be answered on a read worker (decision 0041): the dearest public reads of
 * books, each a service that needs nothing but a ReadContext and plain arguments, and answers
 * plain data (both cross a thread by structured clone). A read added here runs on the workers
 * as it is; one that needs more of the context than `db` and `search` does not belong here.
 * A worker's SQLite connection is query-only: a read may not open a transaction (BEGIN
 * IMMEDIATE is a write) nor leave a stream unfinished (it would hold the reader's snapshot).
 */
export const readServices = {
  searchBooks,
  listBooks,
  listBooksInGenre,
};

type ReadServices = typeof readServices;
export type ReadName = keyof ReadServices;
/** A read's arguments after the context. */
export type ReadArgs<K extends ReadName> = ReadServices[K] extends (
  ctx: ReadContext,
  ...args: infer A
) => unknown
  ? A
  : never;
/** What a read answers. */
export type ReadAnswer<K extends ReadName> = Awaited<ReturnType<ReadServices[K]>>;

/** Where the routes send these reads: `run` answers as the service itself would. */
export interface Reads {
  run<K extends ReadName>(name: K, ...args: ReadArgs<K>): Promise<ReadAnswer<K>>;
  /** Starts what the reads run on (the workers) before the first read needs it; settles when
   * they are ready (or have failed, which the next read reports). */
  warm(): Promise<void>;
  /** Stops what the reads hold of their own (the workers and their connections). */
  close(): Promise<void>;
}

/** The reads answered here, on the event loop, with the server's own connection (READ_WORKERS=0). */
export function inlineReads(ctx: ReadContext): Reads {
  return {
    run: (name, ...args) => callRead(ctx, name, args),
    async warm() {},
    async close() {},
  };
}

/** Calls one read with its arguments; shared by the inline reads and the worker. */
export function callRead<K extends ReadName>(
  ctx: ReadContext,
  name: K,
  args: ReadArgs<K>,
): Promise<ReadAnswer<K>> {
  // TypeScript cannot follow `name` into the union of services; ReadArgs<K> ties them together.
  const service = readServices[name] as unknown as (
    ctx: ReadContext,
    ...args: ReadArgs<K>
  ) => Promise<ReadAnswer<K>>;
  return service(ctx, ...args);
}
