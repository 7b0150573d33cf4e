import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.ts';
import { createDb } from '../db/kysely.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { copyFolderToDatabase } from '../modules/uploads/copy-folder.ts';
import { progressLine } from './progress.ts';

/**
 * `npm run uploads:migrate`: copies the uploads of the folder store (UPLOAD_DIR) into the
 * database store (DATABASE_URL), the step before setting UPLOAD_STORE=database (decision 0026).
 * Hrefs are the same in both stores, so no book or user row changes: only bytes are copied.
 * Safe to run twice, and while servers run. Prints a progress bar (redrawn in place on a
 * terminal, one line per tenth otherwise), then what it did. Exits 0 when done, 1 when the
 * folder or the database cannot be read, 2 on a usage error.
 */
const USAGE = `Usage: npm run uploads:migrate
  Copies every upload in UPLOAD_DIR into the database at DATABASE_URL; uploads already there
  are left alone. Then set UPLOAD_STORE=database.`;

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (args.length > 0) {
  process.stderr.write(`Unexpected arguments: ${args.join(' ')}\n${USAGE}\n`);
  process.exit(2);
}

const config = loadConfig();
const directory = path.resolve(config.UPLOAD_DIR);
if (!fs.statSync(directory, { throwIfNoEntry: false })?.isDirectory()) {
  process.stderr.write(`No folder ${directory} (UPLOAD_DIR): nothing to copy from\n`);
  process.exit(1);
}

const db = createDb(config.DATABASE_URL);
try {
  await migrateToLatest(db);
  const line = progressLine(process.stdout, 'uploads');
  const counted = (done: number, total: number) => `${done} of ${total}`;
  let total = 0;
  const outcome = await copyFolderToDatabase(db, directory, (done, of) => {
    total = of;
    line.draw(of === 0 ? 1 : done / of, counted(done, of));
  });
  line.end(
    1,
    counted(total, total),
    `Copied ${outcome.copied}, already there ${outcome.present}, skipped ${outcome.skipped.length} (from ${directory})`,
    ...outcome.skipped.map(({ entry, reason }) => `  skipped ${entry}: ${reason}`),
  );
  if (config.UPLOAD_STORE !== 'database')
    process.stdout.write('Set UPLOAD_STORE=database for the servers to serve them from there.\n');
} catch (error) {
  process.stderr.write(
    `\nCopying the uploads failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exitCode = 1;
} finally {
  await db.destroy();
}
