import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { RecordedResponse } from './capture.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** A free TCP port on 127.0.0.1 (asked of the kernel, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Resident set size of a process in bytes, from /proc (Linux). */
export function rssOf(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux; ticks of 1/100 s). */
export function cpuSecondsOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

export interface RunningProcess {
  url: string;
  port: number;
  pid: number;
  rss(): number;
  /** Everything the process wrote to stderr (and stdout), for a failure report. */
  output(): string;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitForHttp(
  url: string,
  child: ChildProcess,
  timeoutMs: number,
  output: () => string,
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`process exited (${child.exitCode}) before answering:\n${output()}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`no answer from ${url} within ${timeoutMs} ms:\n${output()}`);
}

/** Starts a node child process (with tsx for TypeScript) and waits until `readyPath` answers 2xx. */
async function startProcess(options: {
  script: string;
  args?: string[];
  env: Record<string, string>;
  port: number;
  readyPath: string;
  nodeOptions?: string[];
}): Promise<RunningProcess> {
  const child = spawn(
    process.execPath,
    [...(options.nodeOptions ?? []), '--import', 'tsx', options.script, ...(options.args ?? [])],
    {
      cwd: ROOT,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const url = `http://127.0.0.1:${options.port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await waitForHttp(url + options.readyPath, child, 60_000, () => log);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
    port: options.port,
    pid: child.pid!,
    rss: () => rssOf(child.pid!),
    output: () => log,
    stop,
  };
}

export interface ServerOptions {
  databaseUrl: string;
  env?: Record<string, string>;
  /** Extra node flags, e.g. --cpu-prof for a profile. */
  nodeOptions?: string[];
}

/**
 * The real Inkwell server (apps/server/src/main.ts), as `npm start` runs it, on 127.0.0.1 and a
 * free port. Logging is at warn: a benchmark of the API, not of writing a log line per request
 * to a pipe (bench/README.md says so next to the figures).
 */
export async function startServer(options: ServerOptions): Promise<RunningProcess> {
  const port = await freePort();
  const uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-bench-uploads-'));
  const server = await startProcess({
    script: 'apps/server/src/main.ts',
    port,
    readyPath: '/readyz',
    // BENCH_SERVER_NODE_FLAGS: node flags for the server only (e.g. a heap setting to compare).
    nodeOptions: [
      ...(process.env.BENCH_SERVER_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
      ...(options.nodeOptions ?? []),
    ],
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: options.databaseUrl,
      UPLOAD_DIR: uploads,
      LOG_LEVEL: 'warn',
      // The fan-out suite opens 10,000 sockets from this one address.
      WS_MAX_SOCKETS_PER_ADDRESS: '0',
      // The load generator is one address doing what thousands of people do: it signs up, signs
      // in and connects sockets as fast as the server goes.
      RATE_LIMIT_SIGNUP: 'off',
      RATE_LIMIT_LOGIN: 'off',
      RATE_LIMIT_SOCKETS: 'off',
      ...options.env,
    },
  });
  return {
    ...server,
    async stop() {
      await server.stop();
      fs.rmSync(uploads, { recursive: true, force: true });
    },
  };
}

/** The raw node:http ceiling (bench/lib/ceiling-server.ts) serving recorded answers from memory. */
export async function startCeiling(
  recorded: Record<string, RecordedResponse>,
): Promise<RunningProcess> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-ceiling-'));
  const file = path.join(dir, 'responses.json');
  fs.writeFileSync(file, JSON.stringify(recorded));
  const port = await freePort();
  try {
    const ceiling = await startProcess({
      script: 'bench/lib/ceiling-server.ts',
      args: [file],
      port,
      readyPath: '/__ceiling_ready',
      env: { PORT: String(port) },
    });
    return {
      ...ceiling,
      async stop() {
        await ceiling.stop();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
