import {
  Ack,
  BookChapterParams,
  BookIdParams,
  Chapter,
  ChaptersResponse,
  CreateChapterBody,
  ErrorBody,
  IdParams,
  LikeState,
  ReorderChaptersBody,
  UpdateChapterBody,
} from '@inkwell/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { authDocs as auth, requireViewer } from '../../plugins/auth.ts';
import { fastAnswer, publicRead } from '../../plugins/public-read.ts';
import * as service from './chapters.service.ts';

const TAG = { tags: ['chapters'] };
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

export const chaptersRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/authors/books/:bookId/chapters',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: "The author's view of a book's chapters, drafts included (no content)",
        params: BookIdParams,
        response: { 200: ChaptersResponse, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => ({
      chapters: await service.listAuthorChapters(
        ctx,
        requireViewer(request),
        request.params.bookId,
      ),
    }),
  );

  app.get(
    '/api/books/:id/chapters',
    {
      ...publicRead,
      schema: {
        ...TAG,
        summary:
          "A book's published chapters in reading order (no content); its author also sees drafts",
        params: IdParams,
        response: { 200: ChaptersResponse, 404: ErrorBody },
      },
    },
    async (request) => ({
      chapters: await service.listBookChapters(ctx, request.viewer, request.params.id),
    }),
  );

  app.post(
    '/api/books/:id/chapters',
    {
      ...fastAnswer,
      schema: {
        ...TAG,
        ...auth,
        summary: 'Create an unpublished chapter, at chapter_order or at the end',
        params: IdParams,
        body: CreateChapterBody,
        response: { 201: Chapter, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await service.createChapter(ctx, requireViewer(request), request.params.id, request.body),
        ),
  );

  app.put(
    '/api/books/:id/chapters',
    {
      ...fastAnswer,
      schema: {
        ...TAG,
        ...auth,
        summary: 'Reorder: every chapter of the book once; orders become 1..n in the order given',
        params: IdParams,
        body: ReorderChaptersBody,
        response: { 200: ChaptersResponse, ...errors },
      },
    },
    async (request) => ({
      chapters: await service.reorderChapters(
        ctx,
        requireViewer(request),
        request.params.id,
        request.body.chapters,
      ),
    }),
  );

  app.get(
    '/api/chapters/:id',
    {
      ...publicRead,
      schema: {
        ...TAG,
        summary: 'A chapter with its content (drafts only for their author)',
        params: IdParams,
        response: { 200: Chapter, 404: ErrorBody },
      },
    },
    async (request) => service.getChapter(ctx, request.viewer, request.params.id),
  );

  app.put(
    '/api/books/:bookId/chapters/:chapterId',
    {
      ...fastAnswer,
      schema: {
        ...TAG,
        ...auth,
        summary: 'Update content, title or is_published; a stale optional version answers 409',
        params: BookChapterParams,
        body: UpdateChapterBody,
        response: { 200: Chapter, 409: ErrorBody, ...errors },
      },
    },
    async (request) =>
      service.updateChapter(
        ctx,
        requireViewer(request),
        request.params.bookId,
        request.params.chapterId,
        request.body,
      ),
  );

  app.delete(
    '/api/chapters/:id',
    {
      ...fastAnswer,
      schema: {
        ...TAG,
        ...auth,
        summary: 'Delete a chapter; the chapters after it move up',
        params: IdParams,
        response: { 200: Ack, ...errors },
      },
    },
    async (request) => {
      await service.deleteChapter(ctx, requireViewer(request), request.params.id);
      return { detail: 'Chapter deleted' };
    },
  );

  for (const [method, like] of [
    ['post', true],
    ['delete', false],
  ] as const) {
    app[method](
      '/api/chapters/:id/like',
      {
        schema: {
          ...TAG,
          ...auth,
          summary: like
            ? 'Like a chapter (one like per reader; a repeat changes nothing)'
            : 'Take back a like of a chapter',
          params: IdParams,
          response: { 200: LikeState, ...errors },
        },
      },
      async (request) =>
        service.setChapterLike(ctx, requireViewer(request), request.params.id, like),
    );
  }
};
