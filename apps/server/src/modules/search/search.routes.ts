import { SearchQuery, SearchResponse } from '@inkwell/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { scopedPublicRead } from '../../plugins/public-read.ts';
import { searchBooks } from './search.service.ts';

export const searchRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/books/search',
    {
      ...scopedPublicRead('search'),
      schema: {
        tags: ['books'],
        summary: 'Full-text search over titles, summaries, authors, genres and chapter text',
        querystring: SearchQuery,
        response: { 200: SearchResponse },
      },
    },
    async (request) => ({ books: await searchBooks(ctx, request.query) }),
  );
};
