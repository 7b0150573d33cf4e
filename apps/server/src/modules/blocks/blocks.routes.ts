import { ErrorBody, UserList, UsernameBody, UsernameParams } from '@inkwell/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { authDocs as auth, requireViewer } from '../../plugins/auth.ts';
import * as service from './blocks.service.ts';
import type { ListKind } from './blocks.service.ts';

const TAG = { tags: ['blocks'] };
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

const LISTS: { kind: ListKind; path: string; noun: string }[] = [
  { kind: 'block', path: '/api/my/blocks', noun: 'blocked' },
  { kind: 'mute', path: '/api/my/mutes', noun: 'muted' },
];

/**
 * The viewer's block and mute lists (issue 19): the same three calls for each. A change answers
 * the list as it now is, so a client need not ask again.
 */
export const blocksRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  for (const { kind, path, noun } of LISTS) {
    app.get(
      path,
      {
        schema: {
          ...TAG,
          ...auth,
          summary: `The users you ${noun}, most recent first`,
          response: { 200: UserList, 401: ErrorBody },
        },
      },
      async (request) => ({ users: await service.listUsers(ctx, requireViewer(request), kind) }),
    );

    app.post(
      path,
      {
        schema: {
          ...TAG,
          ...auth,
          summary: `Add a user (by username) to the users you ${noun}; a repeat changes nothing`,
          body: UsernameBody,
          response: { 200: UserList, ...errors },
        },
      },
      async (request) => {
        const viewer = requireViewer(request);
        await service.addToList(ctx, viewer, kind, request.body.username);
        return { users: await service.listUsers(ctx, viewer, kind) };
      },
    );

    app.delete(
      `${path}/:username`,
      {
        schema: {
          ...TAG,
          ...auth,
          summary: `Take a user off the users you ${noun} (404 when they were not on it)`,
          params: UsernameParams,
          response: { 200: UserList, ...errors },
        },
      },
      async (request) => {
        const viewer = requireViewer(request);
        await service.removeFromList(ctx, viewer, kind, request.params.username);
        return { users: await service.listUsers(ctx, viewer, kind) };
      },
    );
  }
};
