import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { ifNoneMatchLists } from '../../lib/etag.ts';
import * as service from './uploads.service.ts';

/** An upload's name is its content hash: what it names never changes, so caches keep it a year. */
const FOREVER = 'public, max-age=31536000, immutable';

/**
 * `{base}/uploads/<name>`: covers and avatars, from the folder or the database alike. Not part
 * of the API document (it is where the API's hrefs point, like the web app's assets).
 */
export const uploadsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/uploads/:name',
    { schema: { hide: true, params: z.object({ name: z.string() }) } },
    async (request, reply) => {
      const etag = service.uploadEtag(request.params.name);
      // The tag is the content hash, so a client holding it holds these bytes: no need to read them.
      if (ifNoneMatchLists(request.headers['if-none-match'], etag))
        return reply.code(304).headers({ etag, 'cache-control': FOREVER }).send();
      // Not found, the answer is a 404 that no cache keeps (plugins/auth.ts: the upload may yet
      // arrive, from another process or `npm run uploads:migrate`); found, it is kept for a year.
      const upload = await service.readUpload(ctx, request.params.name);
      return reply
        .headers({ etag, 'cache-control': FOREVER })
        .type(upload.contentType)
        .send(upload.bytes);
    },
  );
};
