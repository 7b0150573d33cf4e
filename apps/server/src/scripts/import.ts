import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { IMPORT_FORMATS, IMPORT_MAX_BYTES, ImportFormat } from '@inkwell/contract';
import { loadConfig } from '../config.ts';
import { createDb } from '../db/kysely.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { AppError } from '../lib/errors.ts';
import { findUserByUsername } from '../modules/accounts/accounts.repository.ts';
import { queueImport, readForPreview, type Upload } from '../modules/imports/imports.service.ts';
import { parseInWorker } from '../modules/imports/parse-in-worker.ts';
import { ImportRunner } from '../modules/imports/runner.ts';
import type { ImportDeps } from '../modules/imports/save-book.ts';
import { createUploadStore } from '../modules/uploads/uploads.service.ts';
import { planFromFlags, summaryLines } from './import-choices.ts';
import { progressLine } from './progress.ts';

/**
 * `npm run import -- --user NAME [--keep-front-matter] [--format FMT] [choices] FILE...`
 * Imports files as new unpublished books of user NAME, straight into the configured database
 * (DATABASE_URL; covers go to UPLOAD_STORE), through the same job pipeline as POST /api/imports.
 * Prints a progress bar per file: redrawn in place on a terminal, one line per tenth otherwise.
 * `--dry-run` prints each file's proposed chapters instead, numbered, and imports nothing (no
 * user or database needed). The choices, by those numbers, are the import preview's: `--skip`,
 * `--keep` (matter), `--merge` (into the next imported chapter), `--rename N="Title"`.
 * Exits 0 when every file was imported, 1 when any failed, 2 on a usage error.
 */
const USAGE = `Usage: npm run import -- --user NAME [--keep-front-matter] [--format ${IMPORT_FORMATS.join('|')}]
         [--dry-run] [--skip 1,2] [--keep 1] [--merge 5] [--rename 3="New title"] FILE...
  --dry-run   print the chapters each file would become, numbered, and import nothing
  --skip      leave these chapters out        --keep    import this front or back matter
  --merge     put these chapters at the start of the next imported one
  --rename    give chapter N a new title (repeat for several)
  Choices name chapters by their numbers in the --dry-run summary, and apply to one file.`;

function usage(problem: string): never {
  process.stderr.write(`${problem}\n${USAGE}\n`);
  process.exit(2);
}

let args: ReturnType<typeof parseArguments>;
function parseArguments() {
  return parseArgs({
    allowPositionals: true,
    options: {
      user: { type: 'string', short: 'u' },
      'keep-front-matter': { type: 'boolean', default: false },
      format: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      'dry-run': { type: 'boolean', default: false },
      skip: { type: 'string', multiple: true },
      keep: { type: 'string', multiple: true },
      merge: { type: 'string', multiple: true },
      rename: { type: 'string', multiple: true },
    },
  });
}
try {
  args = parseArguments();
} catch (error) {
  usage(error instanceof Error ? error.message : String(error));
}
if (args.values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const dryRun = args.values['dry-run'] === true;
const username = args.values.user;
if (!username && !dryRun) usage('Missing --user NAME');
if (args.positionals.length === 0) usage('Name at least one file to import');
const format =
  args.values.format === undefined ? undefined : ImportFormat.safeParse(args.values.format);
if (format && !format.success) usage(`Unknown format "${args.values.format}"`);
let plan: ReturnType<typeof planFromFlags> = null;
try {
  plan = planFromFlags(args.values);
} catch (error) {
  usage(error instanceof Error ? error.message : String(error));
}
if (plan && args.positionals.length > 1)
  usage(
    'Choices about chapters (--skip, --keep, --merge, --rename) apply to one file: name only one',
  );
const fields = {
  keep_front_matter: args.values['keep-front-matter'] === true,
  ...(format?.success && { format: format.data }),
  ...(plan && { plan }),
};

let failures = 0;
if (dryRun) {
  for (const file of args.positionals) if (!(await summarize(file))) failures++;
} else await importAll(username!);
if (failures > 0) {
  process.stderr.write(
    `${failures} of ${args.positionals.length} file${args.positionals.length === 1 ? '' : 's'} failed\n`,
  );
  process.exitCode = 1;
}

/** Reads a file for import, or says why it cannot be: too large, or unreadable. */
async function readUpload(file: string): Promise<Upload | string> {
  try {
    if ((await fs.stat(file)).size > IMPORT_MAX_BYTES)
      return `The file is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MB, the most an import accepts`;
    return { bytes: await fs.readFile(file), filename: path.basename(file), fields };
  } catch (error) {
    return `Cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** --dry-run: the file's proposed chapters with the choices applied, as the import would make them. */
async function summarize(file: string): Promise<boolean> {
  const name = path.basename(file);
  const upload = await readUpload(file);
  try {
    if (typeof upload === 'string') throw new Error(upload);
    const { parsed, format: detected } = await readForPreview(
      (request) => parseInWorker(request, () => {}).result,
      upload,
    );
    const lines = summaryLines(name, parsed, detected, {
      keepFrontMatter: fields.keep_front_matter,
      plan,
    });
    process.stdout.write(`${[...lines, ...parsed.warnings.map((w) => `  ${w}`)].join('\n')}\n`);
    return true;
  } catch (error) {
    process.stdout.write(
      `${name}\n  ✗ ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return false;
  }
}

async function importAll(username: string): Promise<void> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
  const db = createDb(config.DATABASE_URL);
  try {
    await migrateToLatest(db);
    const user = await findUserByUsername(db, username);
    if (!user) {
      process.stderr.write(`No user named "${username}"\n`);
      process.exitCode = 2;
    } else {
      const deps = { db, uploads: createUploadStore(config, db) };
      const listeners = new Map<number, Listener>();
      const runner = new ImportRunner(deps, {
        concurrency: 1,
        maxQueued: Number.MAX_SAFE_INTEGER,
        // An unexpected failure's cause goes to stderr: the progress line only says it happened.
        log: {
          error: (object, message) => {
            const { err } = object as { err?: unknown };
            process.stderr.write(`${message}: ${err instanceof Error ? err.stack : String(err)}\n`);
          },
        },
        events: {
          progress: (jobId, fraction, message) => listeners.get(jobId)?.progress(fraction, message),
          finished: (jobId, outcome) => listeners.get(jobId)?.finished(outcome),
        },
      });
      await runner.start();
      // One file after the other, so each keeps its own progress line.
      for (const file of args.positionals) {
        const name = path.basename(file);
        const ok = await importOne(deps, runner, listeners, user.id, file, name);
        if (!ok) failures++;
      }
      await runner.close();
    }
  } finally {
    await db.destroy();
  }
}

interface Listener {
  progress(fraction: number, message: string): void;
  finished(outcome: { status: 'done' | 'failed'; message: string; bookId: number | null }): void;
}

async function importOne(
  deps: ImportDeps,
  runner: ImportRunner,
  listeners: Map<number, Listener>,
  userId: number,
  file: string,
  name: string,
): Promise<boolean> {
  const line = progressLine(process.stdout, name);
  const fail = (message: string) => {
    line.end(0, 'failed', `  ✗ ${message}`);
    return false;
  };
  const upload = await readUpload(file);
  if (typeof upload === 'string') return fail(upload);
  try {
    const outcome = await new Promise<Parameters<Listener['finished']>[0]>((resolve, reject) => {
      queueImport(deps, runner, userId, upload)
        .then((job) => {
          line.draw(0, 'queued');
          listeners.set(job.id, { progress: line.draw, finished: resolve });
        })
        .catch(reject);
    });
    if (outcome.status === 'failed') return fail(outcome.message);
    line.end(1, 'done', `  ✓ ${outcome.message} (book ${outcome.bookId})`);
    return true;
  } catch (error) {
    return fail(error instanceof AppError ? error.message : String(error));
  }
}
