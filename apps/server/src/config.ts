import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

const csv = z
  .string()
  .default('')
  .transform((s) =>
    s
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  );

/** At most `max` requests per `windowMs`, counted in fixed windows. */
export interface RateLimit {
  max: number;
  windowMs: number;
}

const WINDOW_MS = { second: 1_000, minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;

/** A rate limit written `N/minute` (or `/second`, `/hour`, `/day`); `off` (or `0`) for none. */
const rateLimit = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((v, issue): RateLimit | null => {
      const value = v.trim().toLowerCase();
      if (value === 'off' || value === '0') return null;
      const match = /^(\d+)\s*\/\s*(second|minute|hour|day)$/.exec(value);
      if (match && Number(match[1]) > 0)
        return { max: Number(match[1]), windowMs: WINDOW_MS[match[2] as keyof typeof WINDOW_MS] };
      issue.addIssue({
        code: 'custom',
        message: 'give N/second, N/minute, N/hour or N/day, or off',
      });
      return null;
    });

/** Names proxy-addr gives to the usual private ranges. */
const TRUST_PROXY_KEYWORDS = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** Every environment variable Inkwell reads. Documented in README.md; keep the two in step. */
const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /** `postgres://...` selects PostgreSQL; anything else (or nothing) is a SQLite file path. */
  DATABASE_URL: z.string().default('./data/inkwell.db'),
  /** Set: the event bus, chat history and limits go through Redis, so several processes serve as one. */
  REDIS_URL: z.string().optional(),
  /** Prefix of Redis keys and of the event channel; deployments sharing one Redis pick distinct ones. */
  REDIS_PREFIX: z.string().min(1).default('inkwell'),
  /** Interval between WebSocket pings; a socket that missed the previous pong is dropped. */
  WS_HEARTBEAT_MS: z.coerce.number().int().min(50).default(30_000),
  /** Open WebSockets (notifications and chat together) allowed per user and per client
   * address, across all processes when REDIS_URL is set; 0 for no cap. */
  WS_MAX_SOCKETS_PER_USER: z.coerce.number().int().min(0).default(20),
  WS_MAX_SOCKETS_PER_ADDRESS: z.coerce.number().int().min(0).default(1_000),
  /**
   * Where processed images go: `folder` (UPLOAD_DIR, one per process unless shared) or
   * `database` (every process serves every upload; docs/decisions/0026). There is no `s3`: no
   * S3-compatible server could be tested here, and an untested store is not offered.
   */
  UPLOAD_STORE: z
    .enum(['folder', 'database'], {
      error: 'give folder or database (there is no s3 store: docs/decisions/0026)',
    })
    .default('folder'),
  /** The folder store's folder, and what `npm run uploads:migrate` copies from. */
  UPLOAD_DIR: z.string().default('./data/uploads'),
  BASE_PATH: z
    .string()
    .default('/')
    .transform((p) => '/' + p.replace(/^\/+|\/+$/g, ''))
    .transform((p) => (p === '/' ? '' : p)),
  CORS_ORIGINS: csv,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Session lifetime in days. */
  SESSION_DAYS: z.coerce.number().positive().default(30),
  /** How often expired sessions (and socket tickets) are deleted, once across all processes. */
  SESSION_PURGE_INTERVAL_SECONDS: z.coerce.number().positive().default(3600),
  /**
   * How often scheduled chapters that fell due are released (issue 20: within 5 s of their
   * time), once across all processes.
   */
  RELEASE_POLL_INTERVAL_MS: z.coerce.number().int().min(100).default(1000),
  /**
   * How often kept chapter versions are packed and thinned, and chapters deleted 30 days ago
   * purged, once across all processes (issue 20, docs/decisions/0033).
   */
  REVISION_COMPACT_INTERVAL_SECONDS: z.coerce.number().positive().default(600),
  /** Failed logins per IP and per username before each further try must wait (1 s, doubling to
   * 15 min; 429 meanwhile); failures are forgotten after LOGIN_WINDOW_SECONDS without one.
   * Counted in Redis when REDIS_URL is set, so every process counts together. */
  LOGIN_MAX_FAILURES: z.coerce.number().int().positive().default(5),
  LOGIN_WINDOW_SECONDS: z.coerce.number().int().positive().default(3600),
  /**
   * Requests per client address (docs/decisions/0022), far above what people do, to stop
   * scripts: sign-ups and logins (each an argon2 hash), EPUB exports (also per signed-in user),
   * imports, feed reads (per feed route), WebSocket upgrades and socket tickets. Counted in
   * Redis when REDIS_URL is set, so every process counts together; else per process.
   */
  RATE_LIMIT_SIGNUP: rateLimit('100/hour'),
  RATE_LIMIT_LOGIN: rateLimit('60/minute'),
  RATE_LIMIT_EXPORT: rateLimit('30/minute'),
  RATE_LIMIT_EXPORT_PER_USER: rateLimit('10/minute'),
  RATE_LIMIT_IMPORT: rateLimit('60/hour'),
  RATE_LIMIT_FEEDS: rateLimit('300/minute'),
  RATE_LIMIT_SOCKETS: rateLimit('600/minute'),
  /** Comments per signed-in user (issue 19: 5 a minute, a burst of 5). */
  RATE_LIMIT_COMMENTS: rateLimit('5/minute'),
  /** Visitors' chapter-view beacons per client address (issue 20's reader counts). */
  RATE_LIMIT_VIEWS: rateLimit('600/minute'),
  /** How often each process writes the chapter views it counted in memory (and at shutdown). */
  VIEW_FLUSH_INTERVAL_MS: z.coerce.number().int().positive().default(5000),
  /** The largest EPUB an export builds, in MB; a larger book answers 413. */
  EXPORT_MAX_MB: z.coerce.number().positive().default(50),
  /** Memory for built EPUBs kept until their book changes, in MB per process; 0 keeps none. */
  EXPORT_CACHE_MB: z.coerce.number().min(0).default(64),
  /** A request must arrive whole (headers and body) within this; a client that drips it is cut off. */
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().positive().default(300),
  /** A connection idle this long (nothing received or sent) is closed; open sockets are not affected. */
  CONNECTION_TIMEOUT_SECONDS: z.coerce.number().positive().default(60),
  /** The site's public address (`https://books.example`, no path: BASE_PATH follows it), for
   * absolute links in feeds; unset, links follow the request's host and feeds are not kept by
   * shared caches. */
  PUBLIC_URL: z
    .url({ protocol: /^https?$/ })
    .transform((u) => u.replace(/\/+$/, ''))
    .optional(),
  /** Serves `/metrics` to scrapers that send it as a bearer token; unset, `/metrics` is not served. */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** Pin the home page picks instead of computing them: usernames. */
  HOME_AUTHOR_OF_THE_MONTH: z.string().optional(),
  HOME_RISING_AUTHOR: z.string().optional(),
  HOME_FEATURED_AUTHORS: csv,
  /** Operators (issue 19): usernames, comma-separated, who read reports, delete any comment and
   * suspend accounts. Compared without case. */
  ADMIN_USERNAMES: csv,
  /** Cookie `Secure` flag: auto sets it when the request came over HTTPS (directly or via a proxy). */
  COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
  /**
   * Which proxies' `X-Forwarded-*` headers to believe: `false` (none), or the proxies' addresses
   * and CIDR ranges, comma-separated (`loopback`, `linklocal` and `uniquelocal` name the usual
   * ranges). Never "every hop": a client could then pick its own address (and so escape per-IP
   * limits), host and scheme. A bare hop count cannot tell the proxy from a client that talks to
   * the server directly, so Fastify ignores it; it is refused here rather than silently ignored.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v, issue): false | string => {
      const value = v.trim();
      if (value === 'false' || value === '') return false;
      const entries = value.split(',').map((entry) => entry.trim());
      const valid = (entry: string) =>
        /^\d{1,3}(\.\d{1,3}){3}(\/\d{1,2})?$/.test(entry) || // IPv4
        /^[0-9a-fA-F]*:[0-9a-fA-F:.]*(\/\d{1,3})?$/.test(entry) || // IPv6
        TRUST_PROXY_KEYWORDS.has(entry);
      if (entries.every(valid)) return entries.join(', ');
      issue.addIssue({
        code: 'custom',
        message:
          value === 'true'
            ? "true would trust every hop: give the proxies' addresses (e.g. loopback, 10.0.0.0/8)"
            : "give false, or the proxies' addresses and CIDR ranges, comma-separated",
      });
      return false;
    }),
  /** `off`: every public read is computed anew (the answer cache is for visitors' reads). */
  READ_CACHE: z.enum(['on', 'off']).default('on'),
  /** Memory for kept answers, in MB; the oldest answers leave first. */
  READ_CACHE_MB: z.coerce.number().min(0).default(64),
  /** A kept answer is used at most this long, whatever happens: the bound on staleness when a
   * change on another process was missed (Redis down). */
  READ_CACHE_MAX_AGE_SECONDS: z.coerce.number().positive().default(5),
  /** PostgreSQL connections of a process for everything but search, and how long a request
   * waits for one before it answers 503 with Retry-After. */
  DB_POOL_SIZE: z.coerce.number().int().positive().default(10),
  DB_POOL_WAIT_MS: z.coerce.number().int().positive().default(2_000),
  /** Longest a statement on those connections may run before PostgreSQL cancels it (503): a
   * runaway query must not hold a connection. 0 for no limit. */
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  /** SQLite: where a batch of writes is fsynced before its writers hear back. `thread`: on
   * libuv's thread pool after the COMMIT, so the event loop serves other requests meanwhile;
   * `inline`: inside the COMMIT, on the event loop. Both are durable (decision 0036). */
  SQLITE_COMMIT_SYNC: z.enum(['thread', 'inline']).default('thread'),
  /** SQLite: where the WAL is copied back into the database file. `thread`: a worker thread
   * with its own connection, after each group commit; `inline`: inside a COMMIT on the event
   * loop, every 1,000 pages, as SQLite does by default (decision 0038). */
  SQLITE_CHECKPOINT: z.enum(['thread', 'inline']).default('thread'),
  /** PostgreSQL: the planner's cost of a page read out of order on the server's sessions
   * (db/kysely.ts, decision 0042); `server` keeps the server's own setting. */
  PG_RANDOM_PAGE_COST: z.union([z.literal('server'), z.coerce.number().positive()]).optional(),
  /** Search's own PostgreSQL connections, so that searches never hold the other reads' ones,
   * and the longest a search statement may run before PostgreSQL cancels it (503). */
  SEARCH_POOL_SIZE: z.coerce.number().int().positive().default(4),
  SEARCH_TIMEOUT_MS: z.coerce.number().int().positive().default(2_000),
  /** PostgreSQL: `off` finds the newest matching chapters with the plain tsvector index instead
   * of the id-bucket keys (modules/search/postgres-bucket-window.ts says what those buy). */
  SEARCH_BUCKET_KEYS: z.enum(['on', 'off']).default('on'),
  /** Threads that answer searches and book lists (modules/reads), each with its own read-only
   * connection, so that their SQL and snippets run beside the event loop instead of on it
   * (decision 0041). `auto`: one per CPU on a SQLite file, whose statements otherwise run on the
   * event loop; none on PostgreSQL, whose statements already run in its own processes. 0 answers
   * them on the event loop. */
  READ_WORKERS: z
    .union([z.literal('auto'), z.coerce.number().int().min(0).max(16)])
    .default('auto'),
  /** How often pending chapter text is indexed; search lags a published save by about this. */
  SEARCH_INDEX_INTERVAL_MS: z.coerce.number().int().min(10).default(1_000),
  /** How long a chapter this process has just indexed waits before it is indexed again: a
   * published chapter being edited is indexed about this often, not after every autosave
   * (decision 0040); 0 indexes every change at the next round. */
  SEARCH_INDEX_REST_MS: z.coerce.number().int().min(0).default(3_000),
  /** Directory holding the built web app; served at BASE_PATH when it exists. */
  WEB_DIST_DIR: z.string().default(path.resolve(import.meta.dirname, '../../web/dist')),
});

export type Config = z.infer<typeof EnvSchema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  return parsed.data;
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

/**
 * READ_WORKERS as a number of threads (decision 0041): `auto` is one per CPU on a SQLite file
 * (on 2 cores, 2 served the most searches at the lowest p99; 3 did worse) and 0 on PostgreSQL.
 * An in-memory SQLite database has none whatever the setting: no other connection can open it.
 */
export function readWorkerCount(config: Config): number {
  const url = config.DATABASE_URL;
  if (!isPostgresUrl(url) && url.endsWith(':memory:')) return 0;
  if (config.READ_WORKERS !== 'auto') return config.READ_WORKERS;
  return isPostgresUrl(url) ? 0 : os.availableParallelism();
}
