import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const web = path.join(root, 'apps/web');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitForServer(url: string, child: ChildProcess, log: () => string) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${log()}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not answer ${url} within 60 s:\n${log()}`);
}

export function checkChromium(): void {
  if (!fs.existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium')) {
    throw new Error(
      "Chromium is missing: apt-get install -y chromium (the e2e tests use Debian's build).",
    );
  }
}

/** Builds the web app for `basePath` into `dist`. */
export function buildWebApp(basePath: string, dist: string): void {
  const env: NodeJS.ProcessEnv = { ...process.env, BASE_PATH: basePath };
  execFileSync(
    process.execPath,
    [
      path.join(root, 'node_modules/vite/bin/vite.js'),
      'build',
      '--outDir',
      dist,
      '--emptyOutDir',
      '--logLevel',
      'warn',
    ],
    {
      cwd: web,
      env,
      stdio: 'inherit',
    },
  );
}

/**
 * Builds the web app for the test BASE_PATH into a temp folder, starts the real server on a free
 * port with a fresh SQLite database there, and hands the address to the tests through the
 * environment. Returns the teardown.
 */
export default async function globalSetup() {
  checkChromium();
  const basePath = process.env.E2E_BASE_PATH ?? '/inkwell';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-e2e-'));
  const dist = path.join(dir, 'dist');
  buildWebApp(basePath, dist);
  const env: NodeJS.ProcessEnv = { ...process.env, BASE_PATH: basePath };
  // One process, in-memory event bus: the suite needs no Redis.
  delete env.REDIS_URL;
  delete env.DATABASE_URL;

  const port = await freePort();
  let output = '';
  const server = spawn(
    process.execPath,
    [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'apps/server/src/main.ts'],
    {
      cwd: root,
      env: {
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: path.join(dir, 'e2e.db'),
        UPLOAD_DIR: path.join(dir, 'uploads'),
        WEB_DIST_DIR: dist,
        LOG_LEVEL: 'warn',
        // The suite signs in (wrong passwords too) and signs up many times from one address.
        LOGIN_MAX_FAILURES: '1000',
        RATE_LIMIT_SIGNUP: '1000/hour',
        // The operator of the reports page (issue 19); comments.spec.ts signs up under this name.
        ADMIN_USERNAMES: 'e2e_operator',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  server.stdout!.on('data', collect);
  server.stderr!.on('data', collect);

  const origin = `http://127.0.0.1:${port}`;
  const base = basePath === '/' ? '' : basePath.replace(/\/+$/, '');
  await waitForServer(`${origin}${base}/api/genres`, server, () => output);
  process.env.E2E_ORIGIN = origin;
  process.env.E2E_BASE_URL = origin;
  process.env.E2E_BASE_PATH = base;

  return async () => {
    server.kill('SIGTERM');
    await new Promise((r) => (server.exitCode !== null ? r(null) : server.once('exit', r)));
    if (process.env.E2E_SERVER_LOG) fs.writeFileSync(process.env.E2E_SERVER_LOG, output);
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
