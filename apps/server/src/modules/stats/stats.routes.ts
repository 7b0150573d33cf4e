import { Ack, BookStats, BookStatsQuery, ErrorBody, IdParams, ViewBody } from '@inkwell/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { authDocs as auth, requireViewer } from '../../plugins/auth.ts';
import { perAddress } from '../../plugins/rate-limits.ts';
import * as service from './stats.service.ts';

const TAG = { tags: ['stats'] };

/** Issue 20, "Who keeps reading": the author's reader statistics and the visitors' view beacon. */
export const statsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/my/books/:id/stats',
    {
      schema: {
        ...TAG,
        ...auth,
        summary:
          "Your book's followers (now and per day), readers, likes and comments per published chapter, retention, and with ?chapter= where readers' saved progress stops; figures of fewer than 5 readers are null",
        params: IdParams,
        querystring: BookStatsQuery,
        response: { 200: BookStats, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) =>
      service.bookStats(ctx, requireViewer(request), request.params.id, request.query.chapter),
  );

  app.post(
    '/api/chapters/:id/view',
    {
      config: perAddress(ctx.config.RATE_LIMIT_VIEWS, 'chapter views'),
      schema: {
        ...TAG,
        summary:
          "A visitor's browser session read the chapter (counted once per session; a signed-in reader's call changes nothing)",
        params: IdParams,
        body: ViewBody,
        // No 404: nothing is looked up (an unknown or private chapter's view is dropped later).
        response: { 202: Ack, 400: ErrorBody, 429: ErrorBody },
      },
    },
    async (request, reply) => {
      service.countView(ctx, request.viewer, request.params.id, request.body.session);
      return reply.code(202).send({ detail: 'Counted' });
    },
  );
};
