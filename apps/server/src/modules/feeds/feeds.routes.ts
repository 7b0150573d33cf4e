import {
  Ack,
  AuthorRefParams,
  ErrorBody,
  FeedTokenCreated,
  FeedTokenParams,
  FeedTokenStatus,
  IdParams,
} from '@inkwell/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { authDocs as auth, requireViewer } from '../../plugins/auth.ts';
import { perAddress } from '../../plugins/rate-limits.ts';
import * as service from './feeds.service.ts';

const TAG = { tags: ['feeds'] };
const ATOM = 'application/atom+xml; charset=utf-8';
/** Documents an Atom answer: the XML is sent as text, never through the JSON serializer. */
const atomDocs = {
  produces: ['application/atom+xml'],
  response: { 200: z.string().describe('An Atom 1.0 feed'), 404: ErrorBody, 429: ErrorBody },
};

export const feedsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const base = ctx.config.BASE_PATH;
  const limited = perAddress(ctx.config.RATE_LIMIT_FEEDS, 'feed reads');
  const publicUrl = ctx.config.PUBLIC_URL;

  /**
   * The site's absolute root (scheme, host and BASE_PATH) for a feed's links: PUBLIC_URL's, or
   * else as this client reached the site.
   */
  const siteOf = (request: FastifyRequest): service.Site => ({
    root: `${publicUrl ?? `${request.protocol}://${request.host}`}${base}`,
  });

  /**
   * A public feed may be kept by shared caches only when its links come from PUBLIC_URL: links
   * built from a request's Host would let one request poison the copy every reader gets.
   */
  const sendAtom = (reply: FastifyReply, xml: string, audience: 'everyone' | 'owner') => {
    const shared = audience === 'everyone' && publicUrl !== undefined;
    return reply
      .type(ATOM)
      .header('cache-control', `${shared ? 'public' : 'private'}, max-age=300`)
      .send(xml);
  };

  app.get(
    '/api/books/:id/feed.atom',
    {
      config: limited,
      schema: {
        ...TAG,
        ...atomDocs,
        summary:
          "Atom feed of a published book's published chapters, newest first (a draft book answers 404)",
        params: IdParams,
      },
    },
    async (request, reply) =>
      sendAtom(reply, await service.bookFeed(ctx, siteOf(request), request.params.id), 'everyone'),
  );

  app.get(
    '/api/authors/:id/feed.atom',
    {
      config: limited,
      schema: {
        ...TAG,
        ...atomDocs,
        summary:
          "Atom feed of new chapters across an author's published books (author by id or username)",
        params: AuthorRefParams,
      },
    },
    async (request, reply) =>
      sendAtom(
        reply,
        await service.authorFeed(ctx, siteOf(request), request.params.id),
        'everyone',
      ),
  );

  app.get(
    '/api/feeds/:token.atom',
    {
      config: limited,
      schema: {
        ...TAG,
        ...atomDocs,
        summary:
          "A reader's private Atom feed of new chapters by every author they follow; the secret token comes from POST /api/my/feed-token (404 once revoked)",
        params: FeedTokenParams,
      },
    },
    async (request, reply) =>
      sendAtom(
        reply,
        await service.readerFeed(ctx, siteOf(request), request.params.token),
        'owner',
      ),
  );

  app.get(
    '/api/my/feed-token',
    {
      schema: {
        ...TAG,
        ...auth,
        summary:
          'Whether the signed-in reader has an active private feed address (the address is shown only when made)',
        response: { 200: FeedTokenStatus, 401: ErrorBody },
      },
    },
    async (request) => service.feedTokenStatus(ctx, requireViewer(request)),
  );

  app.post(
    '/api/my/feed-token',
    {
      schema: {
        ...TAG,
        ...auth,
        summary:
          'Create or rotate the private feed address; the previous address stops working. Answers {url}',
        response: { 201: FeedTokenCreated, 401: ErrorBody },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await service.rotateFeedToken(ctx, siteOf(request), requireViewer(request))),
  );

  app.delete(
    '/api/my/feed-token',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: 'Revoke the private feed address; its feed answers 404 from now on',
        response: { 200: Ack, 401: ErrorBody },
      },
    },
    async (request) => {
      await service.revokeFeedToken(ctx, requireViewer(request));
      return { detail: 'Feed address revoked' };
    },
  );
};
