/**
 * The worker thread of `sqlite-checkpointer.ts`: its own connection to the database file, which
 * copies the WAL back into the file (a PASSIVE checkpoint: it never waits for the writer or
 * blocks it) each time the main thread says a commit happened, and on a timer for writes that
 * say nothing. Loaded by Node with type stripping: plain JavaScript syntax with types only.
 */
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

const { filename, intervalMs } = workerData as { filename: string; intervalMs: number };
const database = new SQLite(filename, { fileMustExist: true });
// The checkpoint syncs the WAL before copying it and the file after (SQLite's own order).
database.pragma('synchronous = FULL');
// PASSIVE asks for no lock a writer holds; a checkpoint already under way elsewhere is left to it.
database.pragma('busy_timeout = 0');

function checkpoint(): void {
  try {
    database.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // SQLITE_BUSY: another connection is checkpointing; the next request or tick tries again.
  }
  parentPort!.postMessage('done');
}

const timer = setInterval(checkpoint, intervalMs);
parentPort!.on('message', (message: unknown) => {
  if (message === 'checkpoint') return checkpoint();
  if (message === 'close') {
    clearInterval(timer);
    database.close();
    parentPort!.close();
  }
});
