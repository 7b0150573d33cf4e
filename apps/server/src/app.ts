import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import { FILTERED_HIDDEN_HEADER, IMAGE_UPLOAD_MAX_BYTES } from '@inkwell/contract/constants';
import Fastify, { type FastifyInstance, type FastifyRequest, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { createDb, isPostgres, type Db } from './db/kysely.ts';
import { migrateToLatest } from './db/migrate.ts';
import { accountsRoutes } from './modules/accounts/accounts.routes.ts';
import * as accounts from './modules/accounts/accounts.service.ts';
import { authorsRoutes } from './modules/authors/authors.routes.ts';
import { booksRoutes } from './modules/books/books.routes.ts';
import { chaptersRoutes } from './modules/chapters/chapters.routes.ts';
import { commentsRoutes } from './modules/comments/comments.routes.ts';
import { followsRoutes } from './modules/follows/follows.routes.ts';
import { bookFollowsRoutes } from './modules/follows/book-follows.routes.ts';
import { discoveryRoutes } from './modules/discovery/discovery.routes.ts';
import { blocksRoutes } from './modules/blocks/blocks.routes.ts';
import { genresRoutes } from './modules/genres/genres.routes.ts';
import { historyRoutes } from './modules/history/history.routes.ts';
import { homeRoutes } from './modules/home/home.routes.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { libraryRoutes } from './modules/library/library.routes.ts';
import { notesRoutes } from './modules/notes/notes.routes.ts';
import { createEpubStore } from './modules/exports/exports.service.ts';
import { exportsRoutes } from './modules/exports/exports.routes.ts';
import { feedsRoutes } from './modules/feeds/feeds.routes.ts';
import { importsRoutes } from './modules/imports/imports.routes.ts';
import { createReads } from './modules/reads/read-worker-pool.ts';
import { createSearchEngine } from './modules/search/search-engine.ts';
import { SearchIndexer } from './modules/search/search-indexer.ts';
import { searchRoutes } from './modules/search/search.routes.ts';
import { uploadsRoutes } from './modules/uploads/uploads.routes.ts';
import { revisionsRoutes } from './modules/revisions/revisions.routes.ts';
import { createUploadStore } from './modules/uploads/uploads.service.ts';
import { releasesRoutes } from './modules/releases/releases.routes.ts';
import { startPeriodicJobs } from './modules/jobs/periodic-jobs.ts';
import { periodicJobs } from './modules/jobs/schedule.ts';
import { auth } from './plugins/auth.ts';
import { answerFrameworkError, errors } from './plugins/errors.ts';
import { databaseCheck, health } from './plugins/health.ts';
import { AnswerCache } from './lib/answer-cache.ts';
import { urlForLog } from './lib/log-redaction.ts';
import { metrics } from './plugins/metrics.ts';
import { openapi } from './plugins/openapi.ts';
import { rateLimits } from './plugins/rate-limits.ts';
import { publicReads, readCache } from './plugins/read-cache.ts';
import { requestId, requestIdFor } from './plugins/request-id.ts';
import { securityHeaders } from './plugins/security-headers.ts';
import { textGuard } from './plugins/text-guard.ts';
import { bodyLengthGuard } from './plugins/body-length-guard.ts';
import { createLimits } from './lib/shared-limits.ts';
import { webApp } from './plugins/web-app.ts';
import { createLive } from './modules/live/live.ts';
import { statsRoutes } from './modules/stats/stats.routes.ts';
import { writeViews } from './modules/stats/stats.service.ts';
import { ViewCounter } from './modules/stats/view-counter.ts';
import { realtime } from './modules/live/live.plugin.ts';

const BODY_LIMIT_BYTES = 1024 * 1024;

// Secrets in URLs (socket tokens, private feed addresses) must not end up in the logs.
const requestForLog = (request: FastifyRequest) => ({
  method: request.method,
  url: urlForLog(request.url),
  host: request.host,
  remoteAddress: request.ip,
  remotePort: request.socket?.remotePort,
});

export interface BuiltApp {
  app: FastifyInstance;
  ctx: AppContext;
}

/**
 * Brings the schema up to date. A migration may build an index for minutes on a large library:
 * on PostgreSQL it runs on a connection of its own, without the pool's statement timeout.
 */
async function migrate(db: Db, config: Config): Promise<void> {
  if (!isPostgres(db)) return migrateToLatest(db);
  const migrations = createDb(config.DATABASE_URL, {
    size: 1,
    waitMs: config.DB_POOL_WAIT_MS,
    statementTimeoutMs: 0,
  });
  try {
    await migrateToLatest(migrations);
  } finally {
    await migrations.destroy();
  }
}

/** Builds the whole server on a migrated database. Tests call this; main.ts adds listen and signals. */
export async function buildApp(
  config: Config,
  // onRoute: sees every route as it is added (the authorization matrix test builds its table so).
  options: { logger?: boolean; onRoute?: (route: RouteOptions) => void } = {},
): Promise<BuiltApp> {
  const base = config.BASE_PATH;
  const db = createDb(config.DATABASE_URL, {
    size: config.DB_POOL_SIZE,
    waitMs: config.DB_POOL_WAIT_MS,
    statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS,
    randomPageCost: config.PG_RANDOM_PAGE_COST,
    sqliteCommitSync: config.SQLITE_COMMIT_SYNC,
    sqliteCheckpoint: config.SQLITE_CHECKPOINT,
  });
  await migrate(db, config);
  const search = createSearchEngine(db, config);

  // Visitors' public reads are answered from memory until something changes (decision 0013).
  const answers = new AnswerCache({
    maxBytes: config.READ_CACHE === 'on' ? config.READ_CACHE_MB * 1024 * 1024 : 0,
    maxAgeMs: config.READ_CACHE_MAX_AGE_SECONDS * 1000,
  });

  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : { level: config.LOG_LEVEL, serializers: { req: requestForLog } },
    bodyLimit: BODY_LIMIT_BYTES,
    requestTimeout: config.REQUEST_TIMEOUT_SECONDS * 1000,
    connectionTimeout: config.CONNECTION_TIMEOUT_SECONDS * 1000,
    // Node enforces requestTimeout only with headersTimeout no longer, and checks every 30 s.
    http: {
      headersTimeout: Math.min(60_000, config.REQUEST_TIMEOUT_SECONDS * 1000),
      connectionsCheckingInterval: Math.min(30_000, config.REQUEST_TIMEOUT_SECONDS * 250),
    },
    trustProxy: config.TRUST_PROXY,
    genReqId: requestIdFor,
    frameworkErrors: answerFrameworkError,
    routerOptions: { ignoreTrailingSlash: true },
  });
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Some clients (the spec's among them) send `Content-Type: application/json` on calls that have
  // no body, such as DELETE; an empty body there means "no body", not malformed JSON.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    if (text === '') done(null, undefined);
    else parseJson(request, text, done);
  });

  // The event bus and chat history: in memory, or through Redis when REDIS_URL is set.
  const live = createLive({ config, db, log: app.log });
  const searchIndexer = new SearchIndexer(search, {
    intervalMs: config.SEARCH_INDEX_INTERVAL_MS,
    restMs: config.SEARCH_INDEX_REST_MS,
    log: app.log,
    // Cached search answers (plugins/read-cache.ts) may now be out of date, on every process.
    onIndexed: () => void live.bus.publish({ type: 'search.indexed' }),
  });
  const ctx: AppContext = {
    db,
    search,
    reads: createReads({ db, search }, config, (detail) => app.log.error(detail)),
    searchIndexer,
    config,
    events: live.bus,
    // Through Redis when there is one (the bus's commands connection), so every process counts together.
    limits: createLimits({ redis: live.redis, prefix: config.REDIS_PREFIX, log: app.log }),
    uploads: createUploadStore(config, db),
    epubs: createEpubStore(config),
    views: new ViewCounter({
      write: (views) => writeViews(db, views),
      intervalMs: config.VIEW_FLUSH_INTERVAL_MS,
      log: app.log,
    }),
  };
  await live.ready();

  await app.register(errors);
  await app.register(requestId);
  await app.register(metrics, {
    base,
    bus: live.bus,
    token: config.METRICS_TOKEN,
    answers,
  });
  // Before CORS, cookies, rate limits and auth: a visitor's kept answer needs none of them.
  await app.register(readCache, { cache: answers, bus: live.bus });
  const readiness = [
    databaseCheck(db),
    ...(config.REDIS_URL ? [{ name: 'redis', check: () => live.ping() }] : []),
  ];
  await app.register(health, { base, checks: readiness });
  // Before any route: routes ask for their limits as they are added.
  await app.register(rateLimits, { store: ctx.limits.store });
  await app.register(securityHeaders, { base });
  await app.register(cors, {
    origin: config.CORS_ORIGINS.length > 0 ? config.CORS_ORIGINS : false,
    credentials: true,
    // A list's hidden count (issue 21) is for the client to read, from another origin too.
    exposedHeaders: [FILTERED_HIDDEN_HEADER],
  });
  await app.register(cookie);
  await app.register(formbody, { bodyLimit: BODY_LIMIT_BYTES });
  await app.register(multipart, {
    limits: { fileSize: IMAGE_UPLOAD_MAX_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 12 },
  });
  await app.register(bodyLengthGuard, { maxFileBytes: IMAGE_UPLOAD_MAX_BYTES });
  await app.register(auth, {
    ctx,
    viewerForToken: (token) => accounts.viewerForToken(ctx, token),
  });
  // After auth: a visitor hears 401 on (auth) routes whatever the text they sent.
  await app.register(textGuard);
  // After auth and the security headers, whose send hooks set headers a kept answer must carry.
  await app.register(publicReads, { cache: answers });
  await app.register(openapi, { base });

  for (const routes of [
    accountsRoutes,
    authorsRoutes,
    booksRoutes,
    searchRoutes,
    genresRoutes,
    chaptersRoutes,
    commentsRoutes,
    historyRoutes,
    followsRoutes,
    bookFollowsRoutes,
    blocksRoutes,
    homeRoutes,
    notificationsRoutes,
    libraryRoutes,
    notesRoutes,
    exportsRoutes,
    feedsRoutes,
    importsRoutes,
    uploadsRoutes,
    statsRoutes,
    releasesRoutes,
    revisionsRoutes,
    discoveryRoutes,
  ]) {
    await app.register(routes, { ctx, prefix: base });
  }

  await app.register(realtime, { ctx, chatHistory: live.chatHistory, base });

  await app.register(webApp, { base, distDir: config.WEB_DIST_DIR });

  searchIndexer.start();
  ctx.views.start();
  const jobs = startPeriodicJobs(db, periodicJobs(ctx), { log: app.log });
  app.addHook('onClose', async () => {
    await jobs.stop();
    await searchIndexer.stop();
    // The views counted since the last batch are written before the database closes.
    await ctx.views.stop();
    ctx.limits.close();
    await live.close();
    await ctx.reads.close();
    await search.close();
    await db.destroy();
  });

  return { app, ctx };
}
