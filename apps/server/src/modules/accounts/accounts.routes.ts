import {
  Ack,
  ErrorBody,
  LoginBody,
  SessionResponse,
  SignupBody,
  SignupResponse,
  SocketTicket,
  TokenResponse,
} from '@inkwell/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { multipartFormFields } from '../../lib/form-body.ts';
import {
  authDocs as auth,
  clearSessionCookie,
  cookiePlace,
  requireViewer,
  sessionCookieToken,
  setSessionCookie,
} from '../../plugins/auth.ts';
import { perAddress } from '../../plugins/rate-limits.ts';
import { DEVICE_COOKIE, setDeviceCookie, type DeviceOwner } from './known-devices.ts';
import * as service from './accounts.service.ts';

const TAG = { tags: ['accounts'] };

export const accountsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const limiters = service.createLoginLimiters(ctx);
  /** The session's cookie, and the cookie that makes this browser a known device of `user`. */
  const signIn = (
    request: FastifyRequest,
    reply: FastifyReply,
    token: string,
    user: DeviceOwner,
  ) => {
    const place = cookiePlace(ctx.config, request);
    setSessionCookie(reply, token, {
      ...place,
      maxAgeSeconds: Math.round(ctx.config.SESSION_DAYS * 24 * 60 * 60),
    });
    setDeviceCookie(reply, user, place);
  };

  app.post(
    '/api/authors',
    {
      config: perAddress(ctx.config.RATE_LIMIT_SIGNUP, 'sign-ups'),
      schema: {
        ...TAG,
        summary: 'Create an account and sign in',
        body: SignupBody,
        response: { 201: SignupResponse, 400: ErrorBody, 409: ErrorBody, 429: ErrorBody },
      },
    },
    async (request, reply) => {
      const { token, user } = await service.signup(ctx, request.body);
      signIn(request, reply, token, user);
      return reply.status(201).send({
        access_token: token,
        token_type: 'bearer' as const,
        account: service.presentAccount(ctx, user),
      });
    },
  );

  app.post(
    '/token',
    {
      config: perAddress(ctx.config.RATE_LIMIT_LOGIN, 'sign-in attempts'),
      schema: {
        ...TAG,
        summary:
          'Log in (form fields username and password, urlencoded or multipart, or JSON); sets the fastapi_token cookie and the inkwell_device cookie (a lockout of the username by failed guesses does not keep this browser out)',
        body: LoginBody,
        response: {
          200: TokenResponse,
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          429: ErrorBody,
        },
      },
      // The spec's own client sends the form as multipart (a FormData).
      preValidation: multipartFormFields,
    },
    async (request, reply) => {
      const { token, user } = await service.login(ctx, limiters, {
        ...request.body,
        ip: request.ip,
        device: request.cookies[DEVICE_COOKIE],
      });
      signIn(request, reply, token, user);
      return { access_token: token, token_type: 'bearer' as const };
    },
  );

  app.get(
    '/token',
    {
      schema: {
        ...TAG,
        summary: 'The current session from the cookie (or bearer); access_token null when none',
        response: { 200: SessionResponse },
      },
    },
    async (request) => {
      if (!request.viewer || !request.sessionToken) return { access_token: null };
      const user = await service.accountOf(ctx, request.viewer);
      return {
        access_token: request.sessionToken,
        token_type: 'bearer' as const,
        account: service.presentAccount(ctx, user),
      };
    },
  );

  app.post(
    '/api/socket-tickets',
    {
      config: perAddress(ctx.config.RATE_LIMIT_SOCKETS, 'live connections'),
      schema: {
        ...TAG,
        ...auth,
        summary:
          'A single-use ticket to open one WebSocket as the signed-in user within expires_in seconds: {base}/ws?ticket=... or {base}/chat/{username}?ticket=... (the session token stays out of socket URLs)',
        response: { 201: SocketTicket, 401: ErrorBody, 429: ErrorBody },
      },
    },
    async (request, reply) => {
      return reply.status(201).send(await service.issueSocketTicket(ctx, requireViewer(request)));
    },
  );

  app.delete(
    '/token',
    {
      schema: {
        ...TAG,
        summary: 'Log out: ends the session on the server and clears the cookie',
        response: { 200: Ack },
      },
    },
    async (request, reply) => {
      await service.logout(ctx, request.viewer, sessionCookieToken(request));
      clearSessionCookie(reply, cookiePlace(ctx.config, request).path);
      return { detail: 'Logged out' };
    },
  );
};
