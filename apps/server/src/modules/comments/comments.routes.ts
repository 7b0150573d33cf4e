import {
  Ack,
  Comment,
  CommentCounts,
  CommentIdParams,
  CommentList,
  CommentListQuery,
  CommentReplies,
  CommentReports,
  CreateCommentBody,
  ErrorBody,
  IdParams,
  LikeState,
  ReportCommentBody,
  ReportIdParams,
  UpdateCommentBody,
  UsernameParams,
} from '@inkwell/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { authDocs as auth, requireViewer } from '../../plugins/auth.ts';
import { scopedPublicRead } from '../../plugins/public-read.ts';
import { perUser } from '../../plugins/rate-limits.ts';
import * as service from './comments.service.ts';
import * as moderation from './moderation.service.ts';

const TAG = { tags: ['comments'] };
const ADMIN_TAG = { tags: ['moderation'] };
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/** Issue 19: comments on chapters and paragraphs, their likes and reports, and the operators' side. */
export const commentsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/chapters/:id/comments',
    {
      ...scopedPublicRead('comments'),
      schema: {
        ...TAG,
        summary:
          "A page of a chapter's top-level comments (newest first unless sort=oldest; ?paragraph=N for one paragraph's); next_cursor is null on the last page",
        params: IdParams,
        querystring: CommentListQuery,
        response: { 200: CommentList, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => service.listComments(ctx, request.viewer, request.params.id, request.query),
  );

  app.get(
    '/api/chapters/:id/comment-counts',
    {
      ...scopedPublicRead('comments'),
      schema: {
        ...TAG,
        summary:
          "The chapter's shown comments (replies included): in all, and per paragraph (0-based block index)",
        params: IdParams,
        response: { 200: CommentCounts, 404: ErrorBody },
      },
    },
    async (request) => service.countComments(ctx, request.viewer, request.params.id),
  );

  app.get(
    '/api/comments/:commentId/replies',
    {
      ...scopedPublicRead('comments'),
      schema: {
        ...TAG,
        summary: "The replies of a comment's thread, oldest first",
        params: CommentIdParams,
        response: { 200: CommentReplies, 404: ErrorBody },
      },
    },
    async (request) => ({
      comments: await service.listReplies(ctx, request.viewer, request.params.commentId),
    }),
  );

  app.post(
    '/api/chapters/:id/comments',
    {
      preHandler: perUser(ctx.limits.store, ctx.config.RATE_LIMIT_COMMENTS, 'comments'),
      schema: {
        ...TAG,
        ...auth,
        summary:
          'Comment on a chapter, on one of its paragraphs, or reply in a thread (a reply to a reply joins its thread); at most 5 a minute',
        params: IdParams,
        body: CreateCommentBody,
        response: { 201: Comment, ...errors, 429: ErrorBody },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await service.createComment(ctx, requireViewer(request), request.params.id, request.body),
        ),
  );

  app.put(
    '/api/comments/:commentId',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: 'Edit your own comment (sets edited_at)',
        params: CommentIdParams,
        body: UpdateCommentBody,
        response: { 200: Comment, ...errors },
      },
    },
    async (request) =>
      service.updateComment(
        ctx,
        requireViewer(request),
        request.params.commentId,
        request.body.body,
      ),
  );

  app.delete(
    '/api/comments/:commentId',
    {
      schema: {
        ...TAG,
        ...auth,
        summary:
          "Delete a comment (its writer, the book's author or an operator): one with replies stays as a placeholder; its reports are resolved",
        params: CommentIdParams,
        response: { 200: Ack, ...errors },
      },
    },
    async (request) => {
      await service.deleteComment(ctx, requireViewer(request), request.params.commentId);
      return { detail: 'Comment deleted' };
    },
  );

  for (const [method, like] of [
    ['post', true],
    ['delete', false],
  ] as const) {
    app[method](
      '/api/comments/:commentId/like',
      {
        schema: {
          ...TAG,
          ...auth,
          summary: like ? 'Like a comment (a repeat changes nothing)' : 'Take back a like',
          params: CommentIdParams,
          response: { 200: LikeState, ...errors },
        },
      },
      async (request) =>
        service.setCommentLike(ctx, requireViewer(request), request.params.commentId, like),
    );
  }

  app.post(
    '/api/comments/:commentId/report',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: 'Report a comment to the operators',
        params: CommentIdParams,
        body: ReportCommentBody,
        response: { 201: Ack, ...errors },
      },
    },
    async (request, reply) => {
      await service.reportComment(
        ctx,
        requireViewer(request),
        request.params.commentId,
        request.body.reason,
      );
      return reply.status(201).send({ detail: 'Thank you: the operators will look at it' });
    },
  );

  app.get(
    '/api/admin/reports',
    {
      schema: {
        ...ADMIN_TAG,
        ...auth,
        summary: 'Operators only: open reports, oldest first, with the reported comment',
        response: { 200: CommentReports, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request) => ({ reports: await moderation.listReports(ctx, requireViewer(request)) }),
  );

  app.post(
    '/api/admin/reports/:reportId/dismiss',
    {
      schema: {
        ...ADMIN_TAG,
        ...auth,
        summary: 'Operators only: close a report without acting on the comment',
        params: ReportIdParams,
        response: { 200: Ack, ...errors },
      },
    },
    async (request) => {
      await moderation.dismissReport(ctx, requireViewer(request), request.params.reportId);
      return { detail: 'Report dismissed' };
    },
  );

  for (const [action, suspended] of [
    ['suspend', true],
    ['unsuspend', false],
  ] as const) {
    app.post(
      `/api/admin/users/:username/${action}`,
      {
        schema: {
          ...ADMIN_TAG,
          ...auth,
          summary: suspended
            ? 'Operators only: suspend an account (no sign-in; its sessions end, its sockets close)'
            : 'Operators only: lift a suspension',
          params: UsernameParams,
          response: { 200: Ack, ...errors },
        },
      },
      async (request) => {
        await moderation.setUserSuspended(
          ctx,
          requireViewer(request),
          request.params.username,
          suspended,
        );
        return { detail: suspended ? 'Account suspended' : 'Suspension lifted' };
      },
    );
  }
};
