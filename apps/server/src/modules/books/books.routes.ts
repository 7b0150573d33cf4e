import {
  Ack,
  BookFilterFields,
  BookList,
  BookListQuery,
  Book,
  GenreBooksQuery,
  CreateBookBody,
  ErrorBody,
  GenreParams,
  Href,
  IdParams,
  PopularResponse,
  UpdateBookBody,
} from '@inkwell/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { receiveImage } from '../../lib/upload.ts';
import { authDocs as auth, requireViewer } from '../../plugins/auth.ts';
import { sendHiddenCount } from '../../plugins/filtered-list.ts';
import { publicRead } from '../../plugins/public-read.ts';
import * as service from './books.service.ts';

const TAG = { tags: ['books'] };
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

export const booksRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/books',
    {
      ...publicRead,
      schema: {
        ...TAG,
        summary:
          'Published books, newest first (or by sort), with filters and, for a signed-in reader, their saved exclusions',
        querystring: BookListQuery,
        response: { 200: BookList },
      },
    },
    async (request, reply) => {
      const { books, hidden } = await ctx.reads.run('listBooks', request.viewer, request.query);
      sendHiddenCount(reply, hidden);
      return books;
    },
  );

  app.get(
    '/api/books/genres/:genre',
    {
      ...publicRead,
      schema: {
        ...TAG,
        summary: 'Published books in a genre (by name), with the filters and sorts of /api/books',
        params: GenreParams,
        querystring: GenreBooksQuery,
        response: { 200: BookList },
      },
    },
    async (request, reply) => {
      const { books, hidden } = await ctx.reads.run(
        'listBooksInGenre',
        request.viewer,
        request.params.genre,
        request.query,
      );
      sendHiddenCount(reply, hidden);
      return books;
    },
  );

  app.get(
    '/api/recent/books',
    {
      ...publicRead,
      schema: {
        ...TAG,
        summary: 'Recently published books, newest first',
        querystring: z.object({
          limit: z.coerce.number().int().min(1).max(100).default(30),
          filters: BookFilterFields.filters,
        }),
        response: { 200: BookList },
      },
    },
    async (request, reply) => {
      const { books, hidden } = await service.listRecentBooks(
        ctx,
        request.viewer,
        request.query.limit,
        request.query.filters,
      );
      sendHiddenCount(reply, hidden);
      return books;
    },
  );

  app.get(
    '/api/popular/books',
    {
      ...publicRead,
      schema: {
        ...TAG,
        summary: 'Books ranked by distinct readers',
        querystring: z.object({
          limit: z.coerce.number().int().min(1).max(100).default(10),
          filters: BookFilterFields.filters,
        }),
        response: { 200: PopularResponse },
      },
    },
    async (request, reply) => {
      const { popular, hidden } = await service.popularBooks(
        ctx,
        request.viewer,
        request.query.limit,
        request.query.filters,
      );
      sendHiddenCount(reply, hidden);
      return { popular };
    },
  );

  app.get(
    '/api/my/books',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: "The signed-in author's books, drafts included",
        response: { 200: BookList, 401: ErrorBody },
      },
    },
    async (request) => service.listMyBooks(ctx, requireViewer(request)),
  );

  app.get(
    '/api/books/:id',
    {
      ...publicRead,
      schema: {
        ...TAG,
        summary: 'A book (drafts only for their author)',
        params: IdParams,
        response: { 200: Book, 404: ErrorBody },
      },
    },
    async (request) => service.getBook(ctx, request.viewer, request.params.id),
  );

  app.post(
    '/api/books',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: 'Create a book (unpublished)',
        body: CreateBookBody,
        response: { 201: Book, 409: ErrorBody, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await service.createBook(ctx, requireViewer(request), request.body.title)),
  );

  app.put(
    '/api/books/:id',
    {
      schema: {
        ...TAG,
        ...auth,
        summary:
          'Update title, summary, is_published, comments_locked, tags, warnings, rating or status',
        params: IdParams,
        body: UpdateBookBody,
        response: { 200: Book, 409: ErrorBody, ...errors },
      },
    },
    async (request) =>
      service.updateBook(ctx, requireViewer(request), request.params.id, request.body),
  );

  app.delete(
    '/api/books/:id',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: 'Delete a book with its chapters',
        params: IdParams,
        response: { 200: Ack, ...errors },
      },
    },
    async (request) => {
      await service.deleteBook(ctx, requireViewer(request), request.params.id);
      return { detail: 'Book deleted' };
    },
  );

  app.post(
    '/api/books/:id/cover',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: 'Upload a cover (multipart field "image", PNG or JPEG, 5 MB at most)',
        params: IdParams,
        response: { 200: Href, 413: ErrorBody, ...errors },
      },
    },
    async (request) => {
      const viewer = requireViewer(request);
      await service.getOwnedBook(ctx, viewer, request.params.id);
      const href = await receiveImage(request, ctx.uploads, 'cover');
      await service.setCover(ctx, viewer, request.params.id, href);
      return { href };
    },
  );
};
