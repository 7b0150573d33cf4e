import {
  IMPORT_MAX_ACTIVE_PER_USER,
  type ImportFields,
  type ImportFormat,
  type ImportJob,
  type ImportPreview,
} from '@inkwell/contract';
import type { AppContext, Viewer } from '../../context.ts';
import { nowIso, toFlag } from '../../lib/convert.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import * as jobs from './imports.repository.ts';
import { toImportJob, toImportPreview } from './imports.presenter.ts';
import { ParseCrash, type WorkerRequest } from './parse-in-worker.ts';
import { detectFormat, ImportFileError, type ParsedBook } from './parsers/index.ts';
import type { ArrivingUploads } from './arriving-uploads.ts';
import type { ImportRunner } from './runner.ts';
import type { ImportDeps } from './save-book.ts';

export interface Upload {
  bytes: Buffer;
  filename: string;
  fields: ImportFields;
}

const tooManyImports = () =>
  new AppError(
    'rate_limited',
    `You already have ${IMPORT_MAX_ACTIVE_PER_USER} imports in progress; wait for one to finish`,
  );

/**
 * Refuses a new import before its upload is read: too many of the user's own (jobs, and other
 * uploads of theirs still arriving, on any process), or a full queue here. Answers the function
 * that gives the upload's place back (call it once its job exists, or it failed).
 */
export async function reserveImport(
  ctx: AppContext,
  runner: ImportRunner,
  arriving: ArrivingUploads,
  viewer: Viewer,
): Promise<() => void> {
  const active = await jobs.countActiveJobs(ctx.db, viewer.id);
  const release = await arriving.take(viewer.id, IMPORT_MAX_ACTIVE_PER_USER - active);
  if (!release) throw tooManyImports();
  try {
    checkRunnerHasRoom(runner);
  } catch (error) {
    release();
    throw error;
  }
  return release;
}

/** The same check once the upload has arrived, against the jobs alone (its own place is held). */
async function checkCanStart(ctx: AppContext, runner: ImportRunner, viewer: Viewer) {
  if ((await jobs.countActiveJobs(ctx.db, viewer.id)) >= IMPORT_MAX_ACTIVE_PER_USER)
    throw tooManyImports();
  checkRunnerHasRoom(runner);
}

/** The import workers can take one more file: else 503, to retry in a while. */
function checkRunnerHasRoom(runner: ImportRunner): void {
  if (!runner.hasRoom()) {
    throw new AppError(
      'unavailable',
      'The server is busy with other imports; please retry in a minute',
      { 'retry-after': '30' },
    );
  }
}

/** The upload's format and the name it is known by; unknown or binary files are 415. */
function identify(upload: Upload): { format: ImportFormat; filename: string } {
  const format = detectFormat(upload.bytes, upload.filename, upload.fields.format);
  if (!format) {
    throw new AppError(
      'unsupported_media_type',
      'Unsupported file type: send an EPUB, a Word document (DOCX), Markdown, HTML or plain text',
    );
  }
  return { format, filename: upload.filename.slice(0, 255) || 'upload' };
}

/**
 * Reads the file as an import would, with `read` (the runner's workers for the API, a worker
 * of its own for the CLI's --dry-run), and answers the parsed book; a file that cannot be read
 * is a 400 naming the problem. The API and the CLI both come through here.
 */
export async function readForPreview(
  read: (request: WorkerRequest) => Promise<ParsedBook>,
  upload: Upload,
): Promise<{ parsed: ParsedBook; format: ImportFormat; filename: string }> {
  const { format, filename } = identify(upload);
  try {
    const parsed = await read({ bytes: upload.bytes, format, options: { filename } });
    return { parsed, format, filename };
  } catch (error) {
    if (error instanceof ImportFileError) throw badRequest(error.message, 'file');
    if (error instanceof ParseCrash) throw new AppError('internal', error.message);
    throw error;
  }
}

/** What the upload would be imported as: the proposed chapters, nothing stored. */
export async function previewImport(runner: ImportRunner, upload: Upload): Promise<ImportPreview> {
  // The viewer's imports were counted before the upload was read (a preview makes no job);
  // only the workers' room may have changed while it arrived.
  checkRunnerHasRoom(runner);
  const { parsed, format, filename } = await readForPreview(
    (request) => runner.preview(request),
    upload,
  );
  return toImportPreview(parsed, {
    filename,
    format,
    keepFrontMatter: upload.fields.keep_front_matter,
  });
}

/**
 * Records a queued job for `userId` and hands the file to the runner; answers before any
 * parsing. The API and the CLI both come through here.
 */
export async function queueImport(
  deps: ImportDeps,
  runner: ImportRunner,
  userId: number,
  upload: Upload,
): Promise<ImportJob> {
  const { format, filename } = identify(upload);
  const row = await jobs.insertJob(deps.db, {
    userId,
    filename,
    format,
    keepFrontMatter: toFlag(upload.fields.keep_front_matter),
    runner: runner.id,
    now: nowIso(),
  });
  runner.enqueue({
    jobId: row.id,
    userId,
    filename,
    format,
    keepFrontMatter: upload.fields.keep_front_matter,
    plan: upload.fields.plan ?? null,
    bytes: upload.bytes,
  });
  return toImportJob(row);
}

export async function startImport(
  ctx: AppContext,
  runner: ImportRunner,
  viewer: Viewer,
  upload: Upload,
): Promise<ImportJob> {
  await checkCanStart(ctx, runner, viewer);
  return queueImport(ctx, runner, viewer.id, upload);
}

/** A job of the viewer's; anyone else's is 404, as if it did not exist. */
export async function getImport(ctx: AppContext, viewer: Viewer, id: number): Promise<ImportJob> {
  const row = await jobs.findJob(ctx.db, id);
  if (!row || row.user_id !== viewer.id) throw notFound('Import not found');
  return toImportJob(row);
}

export async function listImports(ctx: AppContext, viewer: Viewer): Promise<ImportJob[]> {
  return (await jobs.listJobs(ctx.db, viewer.id, 20)).map(toImportJob);
}
