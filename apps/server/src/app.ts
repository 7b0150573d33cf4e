import fs from 'node:fs';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { createDb } from './db/kysely.ts';
import { migrateToLatest } from './db/migrate.ts';
import { accountsRoutes } from './modules/accounts/accounts.routes.ts';
import { authorsRoutes } from './modules/authors/authors.routes.ts';
import { booksRoutes } from './modules/books/books.routes.ts';
import { chaptersRoutes } from './modules/chapters/chapters.routes.ts';
import { followsRoutes } from './modules/follows/follows.routes.ts';
import { genresRoutes } from './modules/genres/genres.routes.ts';
import { historyRoutes } from './modules/history/history.routes.ts';
import { homeRoutes } from './modules/home/home.routes.ts';
import { auth } from './plugins/auth.ts';
import { errors } from './plugins/errors.ts';
import { openapi } from './plugins/openapi.ts';
import { createFolderUploadStore } from './plugins/upload-store.ts';
import { webApp } from './plugins/web-app.ts';
import { createMemoryBus } from './realtime/memory-bus.ts';

export const BODY_LIMIT_BYTES = 1024 * 1024;
export const UPLOAD_LIMIT_BYTES = 5 * 1024 * 1024;

export interface BuiltApp {
  app: FastifyInstance;
  ctx: AppContext;
}

/** Builds the whole server on a migrated database. Tests call this; main.ts adds listen and signals. */
export async function buildApp(config: Config, options: { logger?: boolean } = {}): Promise<BuiltApp> {
  const base = config.BASE_PATH;
  const db = createDb(config.DATABASE_URL);
  await migrateToLatest(db);

  fs.mkdirSync(config.UPLOAD_DIR, { recursive: true });
  const ctx: AppContext = {
    db,
    config,
    events: createMemoryBus(),
    uploads: createFolderUploadStore(config.UPLOAD_DIR, `${base}/uploads`),
  };

  const app = Fastify({
    logger: options.logger === false ? false : { level: config.LOG_LEVEL },
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    genReqId: () => crypto.randomUUID(),
    requestIdHeader: 'x-request-id',
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(errors);
  await app.register(helmet, {
    // The API answers JSON; the web app's policy is set where it is served.
    contentSecurityPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-site' },
  });
  await app.register(cors, {
    origin: config.CORS_ORIGINS.length > 0 ? config.CORS_ORIGINS : false,
    credentials: true,
  });
  await app.register(cookie);
  await app.register(formbody, { bodyLimit: BODY_LIMIT_BYTES });
  await app.register(multipart, {
    limits: { fileSize: UPLOAD_LIMIT_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 12 },
  });
  await app.register(auth, { ctx });
  await app.register(openapi, { base });

  await app.register(fastifyStatic, {
    root: ctx.uploads.directory,
    prefix: `${base}/uploads/`,
    decorateReply: false,
    // Upload names are content hashes: a name never changes meaning, so caches may keep it forever.
    immutable: true,
    maxAge: '365d',
    index: false,
  });

  for (const routes of [
    accountsRoutes,
    authorsRoutes,
    booksRoutes,
    genresRoutes,
    chaptersRoutes,
    historyRoutes,
    followsRoutes,
    homeRoutes,
  ]) {
    await app.register(routes, { ctx, prefix: base });
  }

  await app.register(webApp, { base, distDir: config.WEB_DIST_DIR });

  app.addHook('onClose', async () => {
    await ctx.events.close();
    await db.destroy();
  });

  return { app, ctx };
}
