import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse, RouteOptions } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import type { AppContext } from '../../src/context.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  database: TestDatabase;
  config: Config;
  close(): Promise<void>;
}

/**
 * Settings that lift the request-rate limits (decision 0022), for suites that call every route
 * many times from one address to test something else (id spellings, who may do what). Every
 * RATE_LIMIT_* setting there is, so a new limit cannot be left out.
 */
export const NO_REQUEST_LIMITS = Object.fromEntries(
  Object.keys(loadConfig({}))
    .filter((name) => name.startsWith('RATE_LIMIT_'))
    .map((name) => [name, 'off']),
);

/**
 * A full server on a fresh database of the engine under test (TEST_DB), with its own upload folder.
 * With `database`, on that one instead (several apps on one database play several processes; each
 * migrates on start, so start them one after the other); closing the app then leaves it.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: { onRoute?: (route: RouteOptions) => void; database?: TestDatabase } = {},
): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const ownsDatabase = options.database === undefined;
  const uploadDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-uploads-'));
  const config = loadConfig({
    DATABASE_URL: database.url,
    UPLOAD_DIR: uploadDir,
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: path.join(uploadDir, 'no-web-build'),
    ...env,
  });
  const { app, ctx } = await buildApp(config, { logger: false, onRoute: options.onRoute });
  await app.ready();
  return {
    app,
    ctx,
    database,
    config,
    async close() {
      await app.close();
      if (ownsDatabase) await database.drop();
      fs.rmSync(uploadDir, { recursive: true, force: true });
    },
  };
}

let userCounter = 0;

/**
 * A client address of its own for each signup: the users a test signs up are different people,
 * not one machine signing up hundreds of accounts (which the per-address limit would refuse).
 */
const signupAddress = (n: number) => `198.18.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`;

export interface TestUser {
  id: number;
  username: string;
  password: string;
  token: string;
}

/** Signs up a new user through the API and answers its id, name and bearer token. */
export async function signup(app: FastifyInstance, username?: string): Promise<TestUser> {
  const n = ++userCounter;
  const name = username ?? `user${process.pid % 1000}_${n}`;
  const password = 'correct horse battery';
  const res = await app.inject({
    method: 'POST',
    url: '/api/authors',
    remoteAddress: signupAddress(n),
    payload: { username: name, password },
  });
  if (res.statusCode !== 201) throw new Error(`signup failed: ${res.statusCode} ${res.body}`);
  const body = res.json();
  return { id: body.account.id, username: name, password, token: body.access_token };
}

type Body = InjectOptions['payload'];

/** Requests as a user (bearer token) or as a visitor (no token). */
export function as(app: FastifyInstance, user?: { token: string } | null) {
  const headers = user ? { authorization: `Bearer ${user.token}` } : {};
  const call = (
    method: InjectOptions['method'],
    url: string,
    payload?: Body,
  ): Promise<LightMyRequestResponse> =>
    app.inject({ method, url, headers, ...(payload !== undefined && { payload }) });
  return {
    get: (url: string) => call('GET', url),
    post: (url: string, payload?: Body) => call('POST', url, payload),
    put: (url: string, payload?: Body) => call('PUT', url, payload),
    delete: (url: string, payload?: Body) => call('DELETE', url, payload),
  };
}

/** Creates a book as `user`, optionally published; answers the book JSON. */
export async function createBook(
  app: FastifyInstance,
  user: TestUser,
  title: string,
  options: { published?: boolean; summary?: string } = {},
) {
  const created = await as(app, user).post('/api/books', { title });
  if (created.statusCode !== 201) throw new Error(`create book failed: ${created.body}`);
  const book = created.json();
  if (options.published || options.summary) {
    const updated = await as(app, user).put(`/api/books/${book.id}`, {
      title,
      summary: options.summary ?? '',
      is_published: options.published ?? false,
    });
    if (updated.statusCode !== 200) throw new Error(`update book failed: ${updated.body}`);
    return updated.json();
  }
  return book;
}
