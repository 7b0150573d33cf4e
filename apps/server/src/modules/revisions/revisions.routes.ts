import {
  Chapter,
  DeletedChapterParams,
  DeletedChaptersResponse,
  ErrorBody,
  IdParams,
  Revision,
  RevisionParams,
  RevisionsQuery,
  RevisionsResponse,
  DELETED_CHAPTER_DAYS,
} from '@inkwell/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { authDocs as auth, requireViewer } from '../../plugins/auth.ts';
import { fastAnswer } from '../../plugins/public-read.ts';
import * as service from './revisions.service.ts';

const TAG = { tags: ['revisions'] };
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

/** Issue 20: a chapter's kept versions and a book's recently deleted chapters (author only). */
export const revisionsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/chapters/:id/revisions',
    {
      schema: {
        ...TAG,
        ...auth,
        summary:
          "A chapter's kept versions, newest first, at most REVISIONS_LIST_LIMIT (`before` pages back; its author only)",
        params: IdParams,
        querystring: RevisionsQuery,
        response: { 200: RevisionsResponse, ...errors },
      },
    },
    async (request) => ({
      revisions: await service.listRevisions(
        ctx,
        requireViewer(request),
        request.params.id,
        request.query.before,
      ),
    }),
  );

  app.get(
    '/api/chapters/:id/revisions/:revisionId',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: 'One kept version with its title and content (its author only)',
        params: RevisionParams,
        response: { 200: Revision, ...errors },
      },
    },
    async (request) =>
      service.getRevision(
        ctx,
        requireViewer(request),
        request.params.id,
        request.params.revisionId,
      ),
  );

  app.post(
    '/api/chapters/:id/revisions/:revisionId/restore',
    {
      ...fastAnswer,
      schema: {
        ...TAG,
        ...auth,
        summary: 'Make a kept version current (itself kept as a version of kind restore)',
        params: RevisionParams,
        response: { 200: Chapter, 409: ErrorBody, ...errors },
      },
    },
    async (request) =>
      service.restoreRevision(
        ctx,
        requireViewer(request),
        request.params.id,
        request.params.revisionId,
      ),
  );

  app.get(
    '/api/books/:id/deleted-chapters',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: `A book's chapters deleted in the last ${DELETED_CHAPTER_DAYS} days (its author only)`,
        params: IdParams,
        response: { 200: DeletedChaptersResponse, ...errors },
      },
    },
    async (request) => ({
      chapters: await service.listDeletedChapters(ctx, requireViewer(request), request.params.id),
    }),
  );

  app.post(
    '/api/books/:id/deleted-chapters/:chapterId/restore',
    {
      ...fastAnswer,
      schema: {
        ...TAG,
        ...auth,
        summary: 'Put a deleted chapter back at its place in the order, with its versions',
        params: DeletedChapterParams,
        response: { 200: Chapter, ...errors },
      },
    },
    async (request) =>
      service.restoreDeletedChapter(
        ctx,
        requireViewer(request),
        request.params.id,
        request.params.chapterId,
      ),
  );
};
