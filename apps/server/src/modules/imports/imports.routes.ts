import {
  ErrorBody,
  IdParams,
  IMPORT_MAX_BYTES,
  ImportFields,
  ImportJob,
  ImportJobList,
  ImportPreview,
} from '@inkwell/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext, Viewer } from '../../context.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { authDocs as auth, requireViewer } from '../../plugins/auth.ts';
import { perAddress } from '../../plugins/rate-limits.ts';
import { assertStorable } from '../../lib/storable-text.ts';
import { ArrivingUploads } from './arriving-uploads.ts';
import { ImportRunner, type RunnerOptions } from './runner.ts';
import * as service from './imports.service.ts';

const TAG = { tags: ['imports'] };
const FILE_FIELD = 'file';
const MB = 1024 * 1024;

/** Reads the multipart upload: the field `file`, and the optional text fields of ImportFields. */
async function readUpload(request: FastifyRequest): Promise<service.Upload> {
  const missing = `Send the file as multipart/form-data in the field "${FILE_FIELD}"`;
  if (!request.isMultipart()) throw badRequest(missing);
  const fields: Record<string, string> = {};
  let file: { bytes: Buffer; filename: string } | null = null;
  try {
    // Text fields up to the import's own limit too: the app's multipart default (1 KB, for the
    // image uploads' fields) would cut a plan that renames a few chapters.
    const limits = { fileSize: IMPORT_MAX_BYTES, fieldSize: IMPORT_MAX_BYTES };
    for await (const part of request.parts({ limits })) {
      if (part.type === 'field') fields[part.fieldname] = String(part.value);
      else if (part.fieldname === FILE_FIELD && !file)
        file = { bytes: await part.toBuffer(), filename: part.filename };
      else part.file.resume();
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError(
        'payload_too_large',
        `The file is larger than ${IMPORT_MAX_BYTES / MB} MB, the most an import accepts`,
      );
    }
    throw error;
  }
  if (!file) throw badRequest(missing);
  assertStorable(fields, { file: file.filename });
  const parsed = ImportFields.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path[0];
    throw badRequest(
      `${issue?.path.join('.') ?? 'fields'}: ${issue?.message ?? 'invalid'}`,
      typeof field === 'string' ? field : undefined,
    );
  }
  return { ...file, fields: parsed.data };
}

export const importsRoutes: FastifyPluginAsyncZod<{
  ctx: AppContext;
  runner?: Partial<RunnerOptions>;
}> = async (app, { ctx, runner: runnerOptions }) => {
  const runner = new ImportRunner(ctx, { ...runnerOptions, log: app.log });
  // Import uploads still arriving, per user, on every process.
  const arriving = new ArrivingUploads(ctx.limits.store);
  await runner.start();
  // preClose, not onClose: the jobs in hand must be failed while the database is still open,
  // and the app's own onClose (which closes it) runs before a child plugin's.
  app.addHook('preClose', () => runner.close());

  /**
   * Runs `work` on the viewer's upload. Counted before the upload is read: uploads still
   * arriving (and previews being read) are not jobs yet, and each may buffer 20 MB.
   */
  async function withUpload<T>(
    request: FastifyRequest,
    work: (viewer: Viewer, upload: service.Upload) => Promise<T>,
  ): Promise<T> {
    const viewer = requireViewer(request);
    const release = await service.reserveImport(ctx, runner, arriving, viewer);
    try {
      return await work(viewer, await readUpload(request));
    } finally {
      release();
    }
  }
  // Tells the body length guard these routes take files up to the import limit, not the image limit.
  const uploadConfig = { maxUploadBytes: IMPORT_MAX_BYTES };
  const uploadErrors = {
    400: ErrorBody,
    401: ErrorBody,
    413: ErrorBody,
    415: ErrorBody,
    429: ErrorBody,
    503: ErrorBody,
  };

  app.post(
    '/api/imports',
    {
      config: { ...uploadConfig, ...perAddress(ctx.config.RATE_LIMIT_IMPORT, 'imports') },
      schema: {
        ...TAG,
        ...auth,
        summary:
          'Import a story into a new unpublished book, as a job: multipart field "file" (EPUB, DOCX, Markdown, HTML or text, 20 MB at most), optional fields keep_front_matter (true/false), format (epub|docx|markdown|html|text) and plan (an ImportPlan as JSON: the choices made on POST /api/imports/preview\'s chapters). Answers 202 with the queued job; poll GET /api/imports/{id}',
        consumes: ['multipart/form-data'],
        response: { 202: ImportJob, ...uploadErrors },
      },
    },
    async (request, reply) =>
      reply
        .status(202)
        .send(
          await withUpload(request, (viewer, upload) =>
            service.startImport(ctx, runner, viewer, upload),
          ),
        ),
  );

  app.post(
    '/api/imports/preview',
    {
      // Reading a file costs what importing it does: previews count with imports.
      config: { ...uploadConfig, ...perAddress(ctx.config.RATE_LIMIT_IMPORT, 'imports') },
      schema: {
        ...TAG,
        ...auth,
        summary:
          'What a file would be imported as, without importing it: the same multipart fields as POST /api/imports (plan aside); answers the proposed chapters with their title, word count and kind (front, body, back), and whether each is included as it stands. A file that cannot be read is 400 naming the problem',
        consumes: ['multipart/form-data'],
        response: { 200: ImportPreview, ...uploadErrors, 500: ErrorBody },
      },
    },
    async (request) =>
      withUpload(request, (_viewer, upload) => service.previewImport(runner, upload)),
  );

  app.get(
    '/api/imports',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: "The signed-in user's 20 most recent imports, newest first",
        response: { 200: ImportJobList, 401: ErrorBody },
      },
    },
    async (request) => ({ imports: await service.listImports(ctx, requireViewer(request)) }),
  );

  app.get(
    '/api/imports/:id',
    {
      schema: {
        ...TAG,
        ...auth,
        summary:
          'An import job: status queued|running|done|failed, progress 0..1, message, and book_id of the new book (only its owner may read it)',
        params: IdParams,
        response: { 200: ImportJob, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => service.getImport(ctx, requireViewer(request), request.params.id),
  );
};
