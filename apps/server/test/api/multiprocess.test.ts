import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { dropRedisKeys } from '../helpers/live.ts';
import { directFront, twoProcessScenarios, type Front } from '../helpers/two-processes.ts';
import { closeAllSockets } from '../helpers/ws.ts';
import { startServer, stopAllServers } from '../reliability/helpers/process.ts';

/**
 * Two real server processes (`tsx apps/server/src/main.ts`) behind no load balancer, sharing one
 * PostgreSQL database and the local Redis: what one process hears, the other's clients get.
 * PostgreSQL only: the many-process deployment is the PostgreSQL + Redis one. The same
 * scenarios run through nginx in behind-nginx.test.ts.
 */
let database: TestDatabase;
let front: Front;
// A prefix of its own, so test runs in parallel never hear each other's events.
const prefix = `inkwell-mp-${crypto.randomBytes(6).toString('hex')}`;

describe.runIf(process.env.TEST_DB === 'postgres')(
  'two server processes on PostgreSQL and Redis',
  () => {
    beforeAll(async () => {
      database = await createTestDatabase('postgres');
      const env = {
        DATABASE_URL: database.url,
        REDIS_URL: 'redis://127.0.0.1:6379',
        REDIS_PREFIX: prefix,
      };
      // Together: Kysely's migrator takes a lock, so only one of them migrates.
      front = directFront(await Promise.all([startServer(env), startServer(env)]));
    });
    afterEach(() => closeAllSockets());
    afterAll(async () => {
      await stopAllServers();
      await dropRedisKeys(prefix);
      await database?.drop();
    });

    twoProcessScenarios(
      () => front,
      () => database.url,
    );
  },
);
