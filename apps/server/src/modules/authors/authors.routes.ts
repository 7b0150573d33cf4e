import {
  Account,
  AuthorListQuery,
  AuthorProfile,
  AuthorRefParams,
  FiltersSwitchQuery,
  AuthorsResponse,
  BookList,
  ErrorBody,
  Href,
  ReaderSettings,
  RecentChapterList,
  RecentChaptersQuery,
  UpdateAuthorBody,
  UpdateReaderSettingsBody,
} from '@inkwell/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { receiveImage } from '../../lib/upload.ts';
import { authDocs as auth, cookiePlace, requireViewer } from '../../plugins/auth.ts';
import { sendHiddenCount } from '../../plugins/filtered-list.ts';
import { DEVICE_COOKIE, setDeviceCookie } from '../accounts/known-devices.ts';
import * as service from './authors.service.ts';

const TAG = { tags: ['authors'] };
const notFound = { 404: ErrorBody };

export const authorsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/authors',
    {
      schema: {
        ...TAG,
        summary: 'Author profiles, in order of sign-up',
        querystring: AuthorListQuery,
        response: { 200: AuthorsResponse, 400: ErrorBody },
      },
    },
    async (request) => ({ authors: await service.listAuthors(ctx, request.query) }),
  );

  app.get(
    '/api/authors/:id',
    {
      schema: {
        ...TAG,
        summary: 'An author profile, by numeric id or username',
        params: AuthorRefParams,
        response: { 200: AuthorProfile, ...notFound },
      },
    },
    async (request) => service.getAuthor(ctx, request.params.id),
  );

  app.put(
    '/api/authors/:id',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: 'Update your own profile; an empty password leaves it unchanged',
        params: AuthorRefParams,
        body: UpdateAuthorBody,
        response: {
          200: Account,
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          409: ErrorBody,
          429: ErrorBody,
          ...notFound,
        },
      },
    },
    async (request, reply) => {
      const { account, newPasswordOf } = await service.updateAuthor(
        ctx,
        requireViewer(request),
        request.params.id,
        request.body,
        request.cookies[DEVICE_COOKIE],
      );
      if (newPasswordOf) setDeviceCookie(reply, newPasswordOf, cookiePlace(ctx.config, request));
      return account;
    },
  );

  app.post(
    '/api/authors/avatar',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: 'Upload your avatar (multipart field "image", PNG or JPEG, 5 MB at most)',
        response: { 200: Href, 400: ErrorBody, 401: ErrorBody, 413: ErrorBody },
      },
    },
    async (request) => {
      const viewer = requireViewer(request);
      const href = await receiveImage(request, ctx.uploads, 'avatar');
      await service.setAvatar(ctx, viewer, href);
      return { href };
    },
  );

  app.get(
    '/api/authors/:id/chapters',
    {
      schema: {
        ...TAG,
        summary:
          "An author's recently updated published chapters (less those of books the signed-in reader's saved exclusions hide)",
        params: AuthorRefParams,
        querystring: RecentChaptersQuery,
        response: { 200: RecentChapterList, 400: ErrorBody, ...notFound },
      },
    },
    async (request, reply) => {
      const { chapters, hidden } = await service.listRecentChapters(
        ctx,
        request.viewer,
        request.params.id,
        request.query,
      );
      sendHiddenCount(reply, hidden);
      return chapters;
    },
  );

  app.get(
    '/api/authors/:id/books',
    {
      schema: {
        ...TAG,
        summary: "An author's published books (less the signed-in reader's saved exclusions)",
        params: AuthorRefParams,
        querystring: FiltersSwitchQuery,
        response: { 200: BookList, ...notFound },
      },
    },
    async (request, reply) => {
      const { books, hidden } = await service.listPublishedBooksOf(
        ctx,
        request.viewer,
        request.params.id,
        request.query.filters,
      );
      sendHiddenCount(reply, hidden);
      return books;
    },
  );

  app.get(
    '/api/my/reader-settings',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: 'Your reader page settings (defaults until changed)',
        response: { 200: ReaderSettings, 401: ErrorBody },
      },
    },
    async (request) => service.getReaderSettings(ctx, requireViewer(request)),
  );

  app.put(
    '/api/my/reader-settings',
    {
      schema: {
        ...TAG,
        ...auth,
        summary: 'Change any of your reader page settings',
        body: UpdateReaderSettingsBody,
        response: { 200: ReaderSettings, 400: ErrorBody, 401: ErrorBody },
      },
    },
    async (request) => service.updateReaderSettings(ctx, requireViewer(request), request.body),
  );
};
