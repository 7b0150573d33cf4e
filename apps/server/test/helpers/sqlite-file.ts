import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDb, type Db, type PoolOptions } from '../../src/db/kysely.ts';

export interface SqliteFile {
  db: Db;
  file: string;
  /** Closes the handle and removes the folder. */
  remove(): Promise<void>;
}

/**
 * A SQLite database in a file of its own (a temporary folder), opened as the server opens one,
 * with the given SQLite settings: for tests of what the driver does on disk (syncs, checkpoints).
 */
export function openSqliteFile(
  options: Pick<PoolOptions, 'sqliteCommitSync' | 'sqliteCheckpoint'> = {},
): SqliteFile {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-sqlite-file-'));
  const file = path.join(dir, 'app.db');
  const db = createDb(`sqlite:${file}`, {
    size: 1,
    waitMs: 1_000,
    statementTimeoutMs: 0,
    ...options,
  });
  return {
    db,
    file,
    async remove() {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The descriptors this process holds on `file`, as Linux lists them: one per open connection. */
export function descriptorsOn(file: string): number {
  return fs.readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return fs.readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false; // closed while listed
    }
  }).length;
}
