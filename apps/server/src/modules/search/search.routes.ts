import { SearchQuery, SearchResponse } from '@inkwell/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { sendHiddenCount } from '../../plugins/filtered-list.ts';
import { scopedPublicRead } from '../../plugins/public-read.ts';

export const searchRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/books/search',
    {
      ...scopedPublicRead('search'),
      schema: {
        tags: ['books'],
        summary:
          'Full-text search over titles, summaries, authors, genres, tags and chapter text, with the list filters; each hit says where its chapter text matched',
        querystring: SearchQuery,
        response: { 200: SearchResponse },
      },
    },
    async (request, reply) => {
      const answer = await ctx.reads.run('searchBooks', request.viewer, request.query);
      sendHiddenCount(reply, answer.hidden);
      return answer;
    },
  );
};
