import { FiltersSwitchQuery, HomePicks } from '@inkwell/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { publicRead } from '../../plugins/public-read.ts';
import * as service from './home.service.ts';

export const homeRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/home/authors',
    {
      // The same for every visitor; rankings that move with reads and follows are kept for at
      // most READ_CACHE_MAX_AGE_SECONDS.
      ...publicRead,
      schema: {
        tags: ['home'],
        summary:
          'Home page picks: author of the month (most new followers in 30 days), rising author ' +
          '(most new readers among authors whose first book is under 90 days old) and featured ' +
          'authors (most followed); each may be pinned by configuration',
        querystring: FiltersSwitchQuery,
        response: { 200: HomePicks },
      },
    },
    async (request) => service.homePicks(ctx, request.viewer, request.query.filters),
  );
};
