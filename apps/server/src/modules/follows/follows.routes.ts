import {
  AuthorRefParams,
  ErrorBody,
  Follow,
  FollowBody,
  FollowedAuthors,
  IsFollowing,
  Unfollow,
} from '@inkwell/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { authDocs as auth, requireViewer } from '../../plugins/auth.ts';
import * as service from './follows.service.ts';

const TAG = { tags: ['follows'] };
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

export const followsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/my/follows',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: 'The authors you follow, most recently followed first',
        response: { 200: FollowedAuthors, 401: ErrorBody },
      },
    },
    async (request) => ({
      authors: await service.listFollowedAuthors(ctx, requireViewer(request)),
    }),
  );

  app.get(
    '/api/authors/:id/is-following',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: 'Whether you follow this author (by id or username); a bare boolean',
        params: AuthorRefParams,
        response: { 200: IsFollowing, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => service.isFollowing(ctx, requireViewer(request), request.params.id),
  );

  app.post(
    '/api/follows',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: 'Follow an author',
        body: FollowBody,
        response: { 201: Follow, 403: ErrorBody, 409: ErrorBody, ...errors },
      },
    },
    async (request, reply) => {
      await service.follow(ctx, requireViewer(request), request.body.author_id);
      return reply
        .status(201)
        .send({ author_id: request.body.author_id, is_following: true as const });
    },
  );

  app.delete(
    '/api/follows',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: 'Stop following an author',
        body: FollowBody,
        response: { 200: Unfollow, ...errors },
      },
    },
    async (request) => {
      await service.unfollow(ctx, requireViewer(request), request.body.author_id);
      return { detail: 'Unfollowed', is_not_following: true as const };
    },
  );
};
