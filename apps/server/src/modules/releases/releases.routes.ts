import {
  Ack,
  Announcement,
  AnnouncementsResponse,
  CreateAnnouncementBody,
  ErrorBody,
  IdParams,
} from '@inkwell/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { authDocs as auth, requireViewer } from '../../plugins/auth.ts';
import { publicRead } from '../../plugins/public-read.ts';
import * as service from './releases.service.ts';

const TAG = { tags: ['announcements'] };
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/** Announcements on a book (issue 20); scheduled releases run as a periodic job, not a route. */
export const releasesRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/books/:id/announcements',
    {
      ...publicRead,
      schema: {
        ...TAG,
        summary: "A book's announcements, newest first (a draft book's for its author only)",
        params: IdParams,
        response: { 200: AnnouncementsResponse, 404: ErrorBody },
      },
    },
    async (request) => ({
      announcements: await service.listAnnouncements(ctx, request.viewer, request.params.id),
    }),
  );

  app.post(
    '/api/books/:id/announcements',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: "Post an announcement on your book; its followers and the author's are told",
        params: IdParams,
        body: CreateAnnouncementBody,
        response: { 201: Announcement, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await service.postAnnouncement(
            ctx,
            requireViewer(request),
            request.params.id,
            request.body,
          ),
        ),
  );

  app.delete(
    '/api/announcements/:id',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: 'Delete an announcement of your book (anyone else gets 404)',
        params: IdParams,
        response: { 200: Ack, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      await service.deleteAnnouncement(ctx, requireViewer(request), request.params.id);
      return { detail: 'Announcement deleted' };
    },
  );
};
