import {
  Ack,
  BookChapterParams,
  ChapterIdParams,
  ErrorBody,
  ReadHistoryQuery,
  ReadHistoryResponse,
  ReadRecord,
} from '@inkwell/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { authDocs as auth, requireViewer } from '../../plugins/auth.ts';
import * as service from './history.service.ts';

const TAG = { tags: ['history'] };

export const historyRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    '/api/books/:bookId/chapters/:chapterId/history',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: 'Record that the signed-in reader read a chapter; a repeat answers 409',
        params: BookChapterParams,
        response: { 201: ReadRecord, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const { bookId, chapterId } = request.params;
      return reply
        .status(201)
        .send(await service.recordRead(ctx, requireViewer(request), bookId, chapterId));
    },
  );

  app.get(
    '/api/my/history',
    {
      schema: {
        ...TAG,
        ...auth,
        summary:
          "The signed-in reader's history, newest first (chapters no longer visible are left out)",
        querystring: ReadHistoryQuery,
        response: { 200: ReadHistoryResponse, 400: ErrorBody, 401: ErrorBody },
      },
    },
    async (request) => ({
      read_history: await service.listHistory(ctx, requireViewer(request), request.query),
    }),
  );

  app.delete(
    '/api/chapters/:chapterId/history',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: "Remove a chapter from the signed-in reader's history",
        params: ChapterIdParams,
        response: { 200: Ack, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      await service.deleteRead(ctx, requireViewer(request), request.params.chapterId);
      return { detail: 'Read history item deleted' };
    },
  );
};
