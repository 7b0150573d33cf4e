import { ErrorBody, IdParams } from '@inkwell/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { perAddress, perUser } from '../../plugins/rate-limits.ts';
import * as service from './exports.service.ts';

export const exportsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/books/:id/export.epub',
    {
      config: perAddress(ctx.config.RATE_LIMIT_EXPORT, 'exports'),
      preHandler: perUser(ctx.limits.store, ctx.config.RATE_LIMIT_EXPORT_PER_USER, 'exports'),
      schema: {
        tags: ['exports'],
        summary:
          'Download a published book as an EPUB 3 file (cover, metadata, table of contents, published chapters); its author may also export drafts, with every chapter',
        params: IdParams,
        produces: ['application/epub+zip'],
        response: {
          200: z.any().meta({ type: 'string', format: 'binary', description: 'The EPUB file' }),
          404: ErrorBody,
          413: ErrorBody,
          429: ErrorBody,
          503: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const file = await service.exportEpub(ctx, request.viewer, request.params.id);
      // The ASCII name for old clients, the exact title (RFC 5987) for the rest.
      const exact = encodeURIComponent(`${file.title}.epub`).replace(
        /['()*]/g,
        (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
      );
      const disposition = `attachment; filename="${file.filename}"; filename*=UTF-8''${exact}`;
      return reply
        .type('application/epub+zip')
        .header('content-disposition', disposition)
        .header('cache-control', 'private, no-cache')
        .send(file.bytes);
    },
  );
};
