import {
  ErrorBody,
  MyFilters,
  TagsQuery,
  TagsResponse,
  UpdateMyFiltersBody,
  WarningsResponse,
} from '@inkwell/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { authDocs as auth, requireViewer } from '../../plugins/auth.ts';
import { publicRead } from '../../plugins/public-read.ts';
import * as service from './discovery.service.ts';

const TAG = { tags: ['discovery'] };

/** Issue 21: the warning list, tag suggestions and a reader's saved exclusions. */
export const discoveryRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/warnings',
    {
      ...publicRead,
      schema: {
        ...TAG,
        summary: 'The fixed list of content warnings',
        response: { 200: WarningsResponse },
      },
    },
    async () => service.warningList(),
  );

  app.get(
    '/api/tags',
    {
      ...publicRead,
      schema: {
        ...TAG,
        summary: 'Tags of published books starting with q (any case), most used first',
        querystring: TagsQuery,
        response: { 200: TagsResponse },
      },
    },
    async (request) => service.tagSuggestions(ctx, request.query.q),
  );

  app.get(
    '/api/my/filters',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: "The signed-in reader's saved exclusions, applied to every list of books",
        response: { 200: MyFilters, 401: ErrorBody },
      },
    },
    async (request) => service.getMyFilters(ctx, requireViewer(request)),
  );

  app.put(
    '/api/my/filters',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: 'Replace the lists sent of your saved exclusions (muted_authors by username)',
        body: UpdateMyFiltersBody,
        response: { 200: MyFilters, 400: ErrorBody, 401: ErrorBody },
      },
    },
    async (request) => service.updateMyFilters(ctx, requireViewer(request), request.body),
  );
};
