import { BookGenreBody, ErrorBody, GenresResponse, IdParams } from '@inkwell/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { authDocs as auth, requireViewer } from '../../plugins/auth.ts';
import * as service from './genres.service.ts';

const TAG = { tags: ['genres'] };
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

export const genresRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/genres',
    {
      schema: {
        ...TAG,
        summary: 'All genres, in palette order',
        response: { 200: GenresResponse },
      },
    },
    async () => ({ genres: await service.listGenres(ctx) }),
  );

  app.get(
    '/api/books/:id/genres',
    {
      schema: {
        ...TAG,
        summary: "A book's genres",
        params: IdParams,
        response: { 200: GenresResponse, 404: ErrorBody },
      },
    },
    async (request) => ({
      genres: await service.listBookGenres(ctx, request.viewer, request.params.id),
    }),
  );

  app.post(
    '/api/books/:id/genres',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: 'Attach a genre to a book',
        params: IdParams,
        body: BookGenreBody,
        response: { 201: GenresResponse, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        genres: await service.addBookGenre(
          ctx,
          requireViewer(request),
          request.params.id,
          request.body.genre_id,
        ),
      }),
  );

  app.delete(
    '/api/books/:id/genres',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: 'Detach a genre from a book',
        params: IdParams,
        body: BookGenreBody,
        response: { 200: GenresResponse, ...errors },
      },
    },
    async (request) => ({
      genres: await service.removeBookGenre(
        ctx,
        requireViewer(request),
        request.params.id,
        request.body.genre_id,
      ),
    }),
  );
};
