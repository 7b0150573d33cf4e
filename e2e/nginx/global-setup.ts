import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase } from '../../apps/server/test/helpers/database.ts';
import { dropRedisKeys } from '../../apps/server/test/helpers/live.ts';
import { nginxBinary, startNginx, stopAllNginx } from '../../apps/server/test/helpers/nginx.ts';
import { startServer, stopAllServers } from '../../apps/server/test/reliability/helpers/process.ts';
import { buildWebApp, checkChromium } from '../global-setup.ts';

/** What the specs learn of the processes behind nginx (E2E_BACKENDS): to tell them apart, and kill one. */
export interface Backend {
  pid: number;
  /** 127.0.0.1:port, as nginx's X-Inkwell-Upstream names it. */
  upstream: string;
}

/**
 * Part of the browser suite through a load balancer (issue 22 §4): the web app built for the
 * test BASE_PATH, two real processes (`tsx apps/server/src/main.ts`) on a fresh PostgreSQL
 * database and Redis, and Debian's nginx in front with the shipped deploy/nginx/inkwell.conf
 * (apps/server/test/helpers/nginx.ts). The specs reach the site only through nginx.
 */
export default async function globalSetup() {
  checkChromium();
  nginxBinary();
  const basePath = process.env.E2E_BASE_PATH ?? '/inkwell';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-e2e-nginx-'));
  const dist = path.join(dir, 'dist');
  buildWebApp(basePath, dist);

  const database = await createTestDatabase('postgres');
  const prefix = `inkwell-e2e-lb-${crypto.randomBytes(5).toString('hex')}`;
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL: 'redis://127.0.0.1:6379',
    REDIS_PREFIX: prefix,
    TRUST_PROXY: 'loopback',
    BASE_PATH: basePath,
    WEB_DIST_DIR: dist,
    // The suite signs in (wrong passwords too) and signs up many times from one address.
    LOGIN_MAX_FAILURES: '1000',
    RATE_LIMIT_SIGNUP: '1000/hour',
  };
  try {
    const processes = await Promise.all([startServer(env), startServer(env)]);
    const nginx = await startNginx({
      upstreams: processes.map((p) => `127.0.0.1:${p.port}`),
      showUpstream: true,
    });
    const base = basePath === '/' ? '' : basePath.replace(/\/+$/, '');
    process.env.E2E_ORIGIN = nginx.http;
    process.env.E2E_BASE_URL = nginx.http;
    process.env.E2E_BASE_PATH = base;
    process.env.E2E_BACKENDS = JSON.stringify(
      processes.map((p): Backend => ({ pid: p.child.pid!, upstream: `127.0.0.1:${p.port}` })),
    );
  } catch (error) {
    await stopAllServers();
    await database.drop();
    throw error;
  }

  return async () => {
    await stopAllNginx();
    await stopAllServers();
    await dropRedisKeys(prefix);
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
