import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../../../../..');

/** A port that was free a moment ago, on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A real Inkwell server process (`apps/server/src/main.ts`), as deployed: its own port, env and logs. */
export interface ServerProcess {
  child: ChildProcess;
  port: number;
  /** http://127.0.0.1:port */
  http: string;
  /** ws://127.0.0.1:port */
  ws: string;
  output: string[];
  exited: Promise<Exit>;
  /** Sends `signal` and waits for the exit (SIGKILL after `graceMs` if it does not come). */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<Exit>;
}

const running = new Set<ServerProcess>();

/**
 * Starts the server with the given environment on a free port and waits until /healthz answers
 * (under BASE_PATH when the environment sets one). UPLOAD_DIR and WEB_DIST_DIR default to a
 * fresh temporary folder and to no web build.
 */
export async function startServer(
  env: Record<string, string>,
  { timeoutMs = 30_000 } = {},
): Promise<ServerProcess> {
  const base = env.BASE_PATH ? `/${env.BASE_PATH.replace(/^\/+|\/+$/g, '')}` : '';
  const port = await freePort();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-rel-'));
  // process.execPath is the Node 24 that runs the tests (the system node may be older).
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      UPLOAD_DIR: path.join(scratch, 'uploads'),
      WEB_DIST_DIR: path.join(scratch, 'no-web-build'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  void exited.then(() => fs.rmSync(scratch, { recursive: true, force: true }));

  const server: ServerProcess = {
    child,
    port,
    http: `http://127.0.0.1:${port}`,
    ws: `ws://127.0.0.1:${port}`,
    output,
    exited,
    async stop(signal = 'SIGTERM', graceMs = 15_000) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill(signal);
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      running.delete(server);
      return exited;
    },
  };
  running.add(server);

  const deadline = Date.now() + timeoutMs;
  let gone: Exit | undefined;
  void exited.then((exit) => (gone = exit));
  while (Date.now() < deadline && !gone) {
    try {
      if ((await fetch(`${server.http}${base === '/' ? '' : base}/healthz`)).ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await server.stop('SIGKILL');
  throw new Error(
    `server did not start (${JSON.stringify(gone ?? 'timeout')}):\n${output.join('')}`,
  );
}

/** Kills whatever a test left running; call it in afterAll. */
export async function stopAllServers(): Promise<void> {
  await Promise.all([...running].map((server) => server.stop('SIGKILL')));
}

/** Resident memory of a process (kB): now, and the peak since it started (Linux /proc). */
export function memoryOf(pid: number): { rssKb: number; peakKb: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssKb: field('VmRSS'), peakKb: field('VmHWM') };
}

/** Starts a new peak-memory measurement: VmHWM drops to the current RSS (Linux clear_refs "5"). */
export function resetPeakMemory(pid: number): void {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
}
