import {
  Ack,
  CreateNoteBody,
  ErrorBody,
  IdParams,
  Note,
  NotesQuery,
  NotesResponse,
  UpdateNoteBody,
} from '@inkwell/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { authDocs as auth, requireViewer } from '../../plugins/auth.ts';
import * as service from './notes.service.ts';

const TAG = { tags: ['notes'] };
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

export const notesRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/my/notes',
    {
      schema: {
        ...TAG,
        ...auth,
        summary:
          "The signed-in reader's private notes, optionally for one book_id or chapter_id (then in reading order: book notes, then by chapter and paragraph); otherwise most recently changed first",
        querystring: NotesQuery,
        response: { 200: NotesResponse, 400: ErrorBody, 401: ErrorBody },
      },
    },
    async (request) => ({
      notes: await service.listNotes(ctx, requireViewer(request), request.query),
    }),
  );

  app.post(
    '/api/my/notes',
    {
      schema: {
        ...TAG,
        ...auth,
        summary:
          'Add a private note (plain text) to a visible book, or to a paragraph of one of its chapters with the quoted text',
        body: CreateNoteBody,
        response: { 201: Note, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.createNote(ctx, requireViewer(request), request.body)),
  );

  app.get(
    '/api/my/notes/:id',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: "One of the signed-in reader's notes (anyone else's answers 404)",
        params: IdParams,
        response: { 200: Note, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => service.getNote(ctx, requireViewer(request), request.params.id),
  );

  app.put(
    '/api/my/notes/:id',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: "Change a note's text (anyone else's note answers 404)",
        params: IdParams,
        body: UpdateNoteBody,
        response: { 200: Note, ...errors },
      },
    },
    async (request) =>
      service.updateNote(ctx, requireViewer(request), request.params.id, request.body.body),
  );

  app.delete(
    '/api/my/notes/:id',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: "Delete a note (anyone else's note answers 404)",
        params: IdParams,
        response: { 200: Ack, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      await service.deleteNote(ctx, requireViewer(request), request.params.id);
      return { detail: 'Note deleted' };
    },
  );
};
