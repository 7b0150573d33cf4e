import fs from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../../db/kysely.ts';
import { parseUploadName, uploadNameFor } from '../../lib/upload-store.ts';
import { storeUpload } from './database-upload-store.ts';
import { storedUploadNames } from './uploads.repository.ts';

export interface CopyOutcome {
  /** Uploads this run stored in the database. */
  copied: number;
  /** Uploads the database held already (an earlier run, or the site itself since). */
  present: number;
  /** Entries of the folder that are not uploads, and why: never copied, never served. */
  skipped: Array<{ entry: string; reason: string }>;
}

/** Names asked about in one query, so a large folder neither needs one query per file nor one huge IN. */
const BATCH = 200;

/**
 * Copies a folder store's uploads into the database store (`npm run uploads:migrate`). Safe to
 * run again, and beside running servers: a name the database holds is not read from the folder,
 * and storing one that arrived meanwhile changes nothing. A file is copied only if it is one a
 * store makes, its bytes hashing to its name: the name is served as a strong ETag for a year.
 * `progress` hears after each upload how many of the folder's uploads have been dealt with.
 */
export async function copyFolderToDatabase(
  db: Db,
  directory: string,
  progress: (done: number, total: number) => void = () => {},
): Promise<CopyOutcome> {
  const outcome: CopyOutcome = { copied: 0, present: 0, skipped: [] };
  const names: string[] = [];
  const entries = await fs.readdir(directory, { withFileTypes: true });
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isFile()) outcome.skipped.push({ entry: entry.name, reason: 'not a file' });
    else if (!parseUploadName(entry.name))
      outcome.skipped.push({ entry: entry.name, reason: 'not the name of an upload' });
    else names.push(entry.name);
  }

  let done = 0;
  progress(done, names.length);
  for (let start = 0; start < names.length; start += BATCH) {
    const batch = names.slice(start, start + BATCH);
    const stored = await storedUploadNames(db, batch);
    for (const name of batch) {
      if (stored.has(name)) outcome.present++;
      else {
        const bytes = await fs.readFile(path.join(directory, name));
        const { extension } = parseUploadName(name)!;
        if (uploadNameFor(bytes, extension) !== name)
          outcome.skipped.push({ entry: name, reason: 'its bytes do not match its name' });
        else if ((await storeUpload(db, bytes, extension)).stored) outcome.copied++;
        else outcome.present++;
      }
      progress(++done, names.length);
    }
  }
  return outcome;
}
