import {
  BookIdParams,
  ErrorBody,
  LibraryEntry,
  LibraryResponse,
  ReadingProgress,
  SaveProgressBody,
  UpdateLibraryEntryBody,
} from '@inkwell/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { authDocs as auth, requireViewer } from '../../plugins/auth.ts';
import * as service from './library.service.ts';

const TAG = { tags: ['library'] };
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

export const libraryRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/my/library',
    {
      schema: {
        ...TAG,
        ...auth,
        summary:
          "The signed-in reader's shelves (reading, want_to_read, finished, dropped) and owned books, each entry with its book card, progress, position and last_read_at; most recent activity first",
        response: { 200: LibraryResponse, 401: ErrorBody },
      },
    },
    async (request) => service.listLibrary(ctx, requireViewer(request)),
  );

  app.get(
    '/api/my/library/:bookId',
    {
      schema: {
        ...TAG,
        ...auth,
        summary:
          "One book's status, owned flag and progress for the signed-in reader (status 'none' when not shelved)",
        params: BookIdParams,
        response: { 200: LibraryEntry, ...errors },
      },
    },
    async (request) => service.getLibraryEntry(ctx, requireViewer(request), request.params.bookId),
  );

  app.put(
    '/api/my/library/:bookId',
    {
      schema: {
        ...TAG,
        ...auth,
        summary:
          "Set a visible book's reading status and/or owned flag; status 'none' and owned false removes it from the library",
        params: BookIdParams,
        body: UpdateLibraryEntryBody,
        response: { 200: LibraryEntry, ...errors },
      },
    },
    async (request) =>
      service.updateLibraryEntry(ctx, requireViewer(request), request.params.bookId, request.body),
  );

  app.get(
    '/api/my/progress/:bookId',
    {
      schema: {
        ...TAG,
        ...auth,
        summary:
          'The saved reading position in a book (null when none) and chapters read of total, for "Continue reading"',
        params: BookIdParams,
        response: { 200: ReadingProgress, ...errors },
      },
    },
    async (request) => service.getProgress(ctx, requireViewer(request), request.params.bookId),
  );

  app.put(
    '/api/my/progress/:bookId',
    {
      schema: {
        ...TAG,
        ...auth,
        summary:
          "Save the reading position (chapter, paragraph index, offset); debounce on the client. A book on no shelf goes on 'reading'",
        params: BookIdParams,
        body: SaveProgressBody,
        response: { 200: ReadingProgress, ...errors },
      },
    },
    async (request) =>
      service.saveProgress(ctx, requireViewer(request), request.params.bookId, request.body),
  );
};
