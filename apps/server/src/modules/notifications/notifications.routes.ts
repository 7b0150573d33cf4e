import {
  ErrorBody,
  MarkReadBody,
  MarkReadResponse,
  NotificationList,
  NotificationListQuery,
} from '@inkwell/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { authDocs as auth, requireViewer } from '../../plugins/auth.ts';
import * as service from './notifications.service.ts';

const TAG = { tags: ['notifications'] };

export const notificationsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  app.get(
    '/api/my/notifications',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: "The viewer's notifications, newest first, with the unread count",
        querystring: NotificationListQuery,
        response: { 200: NotificationList, 400: ErrorBody, 401: ErrorBody },
      },
    },
    async (request) => service.listNotifications(ctx, requireViewer(request), request.query),
  );

  app.post(
    '/api/my/notifications/read',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: 'Mark notifications read: the given ids, or all of them when no ids are sent',
        body: MarkReadBody,
        response: { 200: MarkReadResponse, 400: ErrorBody, 401: ErrorBody },
      },
    },
    async (request) => service.markRead(ctx, requireViewer(request), request.body?.ids),
  );
};
