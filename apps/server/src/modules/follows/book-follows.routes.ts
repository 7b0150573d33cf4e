import {
  BookFollowState,
  ErrorBody,
  FiltersSwitchQuery,
  FollowedBooks,
  IdParams,
} from '@inkwell/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { authDocs as auth, requireViewer } from '../../plugins/auth.ts';
import { sendHiddenCount } from '../../plugins/filtered-list.ts';
import * as service from './book-follows.service.ts';

const TAG = { tags: ['follows'] };
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/** Follows of books (issue 19). */
export const bookFollowsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  app.post(
    '/api/books/:id/follow',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: 'Follow a book (idempotent): its new chapters reach you',
        params: IdParams,
        response: { 200: BookFollowState, ...errors },
      },
    },
    async (request) => service.followBook(ctx, requireViewer(request), request.params.id),
  );

  app.delete(
    '/api/books/:id/follow',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: 'Stop following a book (idempotent)',
        params: IdParams,
        response: { 200: BookFollowState, ...errors },
      },
    },
    async (request) => service.unfollowBook(ctx, requireViewer(request), request.params.id),
  );

  app.get(
    '/api/my/followed-books',
    {
      schema: {
        ...TAG,
        ...auth,
        summary:
          'The books you follow, most recently followed first, with published and unread chapter counts',
        querystring: FiltersSwitchQuery,
        response: { 200: FollowedBooks, 401: ErrorBody },
      },
    },
    async (request, reply) => {
      const { books, hidden } = await service.listFollowedBooks(
        ctx,
        requireViewer(request),
        request.query.filters,
      );
      sendHiddenCount(reply, hidden);
      return { books };
    },
  );
};
