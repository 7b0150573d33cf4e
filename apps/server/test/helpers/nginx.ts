import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../reliability/helpers/process.ts';

/**
 * Debian's nginx in front of Inkwell processes, as docs/deploy.md deploys it: the tests run the
 * shipped `deploy/nginx/inkwell.conf` itself, changing only the upstream addresses, the listen
 * address and the access log's path (and, for tests of other proxies, the edits they name). Each
 * nginx runs in the foreground with its pid, temp files and logs in a temp folder of its own, on a
 * free port: the package's own service and port 80 are never involved.
 */
const REPO_ROOT = path.resolve(import.meta.dirname, '../../../..');
export const NGINX_CONF = path.join(REPO_ROOT, 'deploy/nginx/inkwell.conf');

/** The nginx binary (NGINX_BIN, else Debian's /usr/sbin/nginx, else the PATH's); throws when absent. */
export function nginxBinary(): string {
  const candidates = [process.env.NGINX_BIN, '/usr/sbin/nginx'].filter(Boolean) as string[];
  for (const candidate of candidates) if (fs.existsSync(candidate)) return candidate;
  try {
    return execFileSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error(
      "nginx is missing: apt-get install -y nginx (the load-balancer tests use Debian's package; .ci/run installs it)",
    );
  }
}

/** A text edit of the shipped file: `find` must occur exactly once. */
export type ConfigEdit = [find: string | RegExp, replace: string];

/** How other proxies differ from the recommended file, for the tests of what they do. */
export const PROXY_VARIANTS = {
  /** nginx's own default for Host: the upstream's name ("inkwell"), as a proxy that rewrites Host. */
  rewritesHost: [
    ['proxy_set_header Host $http_host;', 'proxy_set_header Host $proxy_host;'],
  ] as ConfigEdit[],
  /** A proxy that sends no X-Forwarded-Host (nginx sends none unless told). */
  noForwardedHost: [['proxy_set_header X-Forwarded-Host $http_host;\n', '']] as ConfigEdit[],
  /** The usual snippet: X-Forwarded-Host $host, which drops the port the browser used. */
  forwardedHostWithoutPort: [
    ['proxy_set_header X-Forwarded-Host $http_host;', 'proxy_set_header X-Forwarded-Host $host;'],
  ] as ConfigEdit[],
};

export interface RenderOptions {
  port: number;
  /** host:port of each process, in the upstream's order. */
  upstreams: string[];
  accessLog: string;
  /** Test-only: name the process that answered in an X-Inkwell-Upstream header (sockets too). */
  showUpstream?: boolean;
  edits?: ConfigEdit[];
}

function replaceOnce(text: string, find: string | RegExp, replace: string): string {
  const pattern =
    typeof find === 'string'
      ? new RegExp(find.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g')
      : new RegExp(find.source, find.flags.includes('g') ? find.flags : `${find.flags}g`);
  const hits = text.match(pattern)?.length ?? 0;
  if (hits !== 1) throw new Error(`${NGINX_CONF}: expected "${find}" once, found it ${hits} times`);
  return text.replace(pattern, () => replace);
}

/** The shipped site file with this run's addresses (and edits) in place. */
export function renderSite(options: RenderOptions): string {
  let text = fs.readFileSync(NGINX_CONF, 'utf8');
  // The upstream's `server` lines become one per process, with the shipped parameters.
  const lines = [...text.matchAll(/^([ \t]*)server 127\.0\.0\.1:\d+( [^;\n]*)?;\n/gm)];
  if (lines.length === 0) throw new Error(`${NGINX_CONF}: no upstream server lines`);
  const [indent, params = ''] = [lines[0]![1]!, lines[0]![2]];
  const block = options.upstreams.map((address) => `${indent}server ${address}${params};\n`);
  const start = lines[0]!.index!;
  const last = lines.at(-1)!;
  text = text.slice(0, start) + block.join('') + text.slice(last.index! + last[0].length);
  text = replaceOnce(text, /^([ \t]*)listen 80;$/m, `    listen 127.0.0.1:${options.port};`);
  text = replaceOnce(text, /access_log \S+ inkwell;/, `access_log ${options.accessLog} inkwell;`);
  if (options.showUpstream) {
    const [serverName] = /^[ \t]*server_name [^;]+;$/m.exec(text) ?? [''];
    text = replaceOnce(
      text,
      serverName,
      `${serverName}\n    add_header X-Inkwell-Upstream $upstream_addr always;`,
    );
  }
  for (const [find, replace] of options.edits ?? []) text = replaceOnce(text, find, replace);
  return text;
}

/** `nginx -t`: throws with nginx's own words when the configuration is refused. */
function check(binary: string, args: string[]): void {
  try {
    execFileSync(binary, ['-t', '-q', ...args], { stdio: 'pipe' });
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? String(error);
    throw new Error(`nginx refused the configuration:\n${stderr}`, { cause: error });
  }
}

export interface Nginx {
  port: number;
  /** http://127.0.0.1:port */
  http: string;
  /** ws://127.0.0.1:port */
  ws: string;
  /** The site file as this nginx runs it. */
  site: string;
  /** Writes a new upstream (a process added or taken out) and reloads, as docs/deploy.md says. */
  reload(upstreams: string[]): Promise<void>;
  /** The access log so far (one line per finished request; a socket's when it closes). */
  accessLog(): string;
  errorLog(): string;
  stop(): Promise<void>;
}

const running = new Set<Nginx>();

export interface StartNginxOptions {
  upstreams: string[];
  /** A port chosen beforehand (a backend's PUBLIC_URL names it); else a free one. */
  port?: number;
  showUpstream?: boolean;
  edits?: ConfigEdit[];
}

/** Starts nginx (`daemon off`, one worker) in front of `upstreams` and waits until it listens. */
export async function startNginx(options: StartNginxOptions): Promise<Nginx> {
  const binary = nginxBinary();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-nginx-'));
  // nginx's workers run as nobody when started by root: they must be able to reach the temp paths.
  fs.chmodSync(dir, 0o755);
  fs.mkdirSync(path.join(dir, 'logs'));
  const port = options.port ?? (await freePort());
  const accessLog = path.join(dir, 'access.log');
  const errorLog = path.join(dir, 'error.log');
  const siteFile = path.join(dir, 'inkwell.conf');
  const mainFile = path.join(dir, 'nginx.conf');
  const write = (upstreams: string[]) => {
    const site = renderSite({ ...options, upstreams, port, accessLog });
    fs.writeFileSync(siteFile, site);
    return site;
  };
  let site = write(options.upstreams);
  fs.writeFileSync(
    mainFile,
    [
      'daemon off;',
      'worker_processes 1;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${errorLog} notice;`,
      'events { worker_connections 1024; }',
      'http {',
      `  client_body_temp_path ${dir}/client_body;`,
      `  proxy_temp_path ${dir}/proxy;`,
      `  fastcgi_temp_path ${dir}/fastcgi;`,
      `  uwsgi_temp_path ${dir}/uwsgi;`,
      `  scgi_temp_path ${dir}/scgi;`,
      '  access_log off;',
      `  include ${siteFile};`,
      '}',
      '',
    ].join('\n'),
  );
  const args = ['-c', mainFile, '-p', dir];
  try {
    check(binary, args);
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const child: ChildProcess = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');
  const count = (pattern: RegExp) => read(errorLog).match(pattern)?.length ?? 0;
  const workersStarted = () => count(/start worker process/g);
  const workersExited = () => count(/worker process \d+ exited/g);

  const nginx: Nginx = {
    port,
    http: `http://127.0.0.1:${port}`,
    ws: `ws://127.0.0.1:${port}`,
    get site() {
      return site;
    },
    async reload(upstreams) {
      const [started, exited] = [workersStarted(), workersExited()];
      site = write(upstreams);
      check(binary, args);
      child.kill('SIGHUP');
      const deadline = Date.now() + 10_000;
      while (workersStarted() <= started) {
        if (Date.now() > deadline) throw new Error(`nginx did not reload:\n${read(errorLog)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // The old worker finishes what it holds, then leaves (an open socket keeps it until the
      // socket closes): give it a moment, so the tests' next requests meet the new one.
      const leaving = Date.now() + 3_000;
      while (workersExited() <= exited && Date.now() < leaving)
        await new Promise((resolve) => setTimeout(resolve, 50));
    },
    accessLog: () => read(accessLog),
    errorLog: () => read(errorLog),
    async stop() {
      running.delete(nginx);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  running.add(nginx);

  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited:\n${output}${read(errorLog)}`);
    const listening = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (listening) return nginx;
    if (Date.now() > deadline) {
      await nginx.stop();
      throw new Error(`nginx did not listen on ${port}:\n${output}${read(errorLog)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A GET on a connection of its own, closed after the answer: a load generator's requests then
 * measure nginx and the processes, not a client's reuse of a connection nginx is closing.
 * Answers the status (0 when the connection failed) and nginx's X-Inkwell-Upstream.
 */
export function getOnce(
  url: string,
  timeoutMs = 10_000,
): Promise<{ status: number; upstream: string }> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          upstream: String(res.headers['x-inkwell-upstream'] ?? ''),
        }),
      );
      res.on('error', () => resolve({ status: 0, upstream: '' }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, upstream: '' }));
  });
}

/** Stops every nginx a test started; call it in afterAll. */
export async function stopAllNginx(): Promise<void> {
  await Promise.all([...running].map((nginx) => nginx.stop()));
}
