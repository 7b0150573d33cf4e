import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';
import { dropRedisKeys } from '../../helpers/live.ts';
import { startNginx, stopAllNginx, type Nginx } from '../../helpers/nginx.ts';
import { upstreamOf } from '../../helpers/two-processes.ts';
import { Ledger } from '../helpers/ledger.ts';
import { startServer, stopAllServers, type ServerProcess } from '../helpers/process.ts';
import { call, setUpBook, signupOver, type Answer } from '../helpers/workload.ts';

/**
 * Issue 22 §4, the fault test: nginx (deploy/nginx/inkwell.conf) in front of two processes on
 * one PostgreSQL and Redis, under steady load (visitors' reads, authors' autosaves, open
 * notification and chat sockets that reconnect as the web app's do), and one process is killed
 * with SIGKILL halfway. Every acknowledged save is stored afterwards; every socket the dead
 * process held is open again on the survivor within 10 s and hears the next CHAPTER; fewer than
 * 0.5% of the requests fail. The figures are printed.
 */
const LOAD_BEFORE_KILL_MS = 5_000;
const LOAD_AFTER_KILL_MS = 8_000;
const READERS = 4;
const AUTHORS = 4;
const CHAPTERS_PER_BOOK = 3;
const NOTIFICATION_SOCKETS = 8;
const CHAT_SOCKETS = 4;
const RECONNECT_BOUND_MS = 10_000;
const MAX_FAILED_SHARE = 0.005;

let database: TestDatabase | undefined;
const prefix = `inkwell-kill-${crypto.randomBytes(5).toString('hex')}`;
afterAll(async () => {
  await stopAllNginx();
  await stopAllServers();
  await dropRedisKeys(prefix);
  await database?.drop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ok = (status: number) => status >= 200 && status < 300;

/** Every request the load made, by kind and answer (0: the connection failed). */
class Tally {
  readonly byKind = new Map<string, Map<number, number>>();
  count(kind: string, status: number) {
    const statuses = this.byKind.get(kind) ?? new Map<number, number>();
    this.byKind.set(kind, statuses);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  get total() {
    return [...this.byKind.values()].flatMap((m) => [...m.values()]).reduce((a, b) => a + b, 0);
  }
  get failed() {
    return [...this.byKind.values()]
      .flatMap((m) => [...m].filter(([status]) => !ok(status) && status !== 101))
      .reduce((sum, [, n]) => sum + n, 0);
  }
  describe() {
    return [...this.byKind]
      .map(([kind, m]) => `${kind} ${JSON.stringify(Object.fromEntries(m))}`)
      .join('; ');
  }
}

/**
 * A live socket as the web app keeps one (apps/web/src/lib/socket.ts): a fresh ticket, then the
 * socket; when it is lost, again after 1 s, doubling while attempts fail.
 */
class LiveClient {
  readonly opened: Array<{ at: number; upstream: string }> = [];
  readonly lost: number[] = [];
  readonly frames: Array<{ type?: string }> = [];
  private socket: WebSocket | null = null;
  private stopped = false;
  private readonly nginx: Nginx;
  private readonly tally: Tally;
  private readonly token: string;
  readonly path: string;

  constructor(nginx: Nginx, tally: Tally, token: string, path: string) {
    this.nginx = nginx;
    this.tally = tally;
    this.token = token;
    this.path = path;
  }

  get isOpen() {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /**
   * Opens the socket, retrying as the web app does: 1 s after a loss, then 2 s, 4 s...; the
   * first connection at once. Resolves once it is open.
   */
  async connect(afterLoss = false): Promise<void> {
    for (let attempt = afterLoss ? 0 : -1; !this.stopped; attempt++) {
      if (attempt >= 0) await sleep(Math.min(30_000, 1000 * 2 ** attempt));
      if (await this.connectOnce()) return;
    }
  }

  private async connectOnce(): Promise<boolean> {
    const ticket = await call(this.nginx.http, 'POST', '/api/socket-tickets', {
      token: this.token,
    });
    this.tally.count('socket ticket', ticket.status);
    if (ticket.status !== 201) return false;
    const ws = new WebSocket(`${this.nginx.ws}${this.path}?ticket=${ticket.body.ticket}`);
    let upstream = '';
    ws.once('upgrade', (res) => (upstream = upstreamOf(res.headers)));
    const opened = await new Promise<boolean>((resolve) => {
      ws.once('open', () => resolve(true));
      ws.once('unexpected-response', (_req, res) => {
        this.tally.count('socket upgrade', res.statusCode ?? 0);
        resolve(false);
      });
      ws.once('error', () => resolve(false));
    });
    if (!opened) {
      if (ws.readyState !== WebSocket.CLOSED) ws.terminate();
      if (!this.stopped) this.tally.count('socket upgrade', 0);
      return false;
    }
    this.tally.count('socket upgrade', 101);
    this.socket = ws;
    this.opened.push({ at: Date.now(), upstream });
    ws.on('message', (data) => this.frames.push(JSON.parse(data.toString())));
    ws.once('close', () => {
      if (this.stopped) return;
      this.lost.push(Date.now());
      void this.connect(true);
    });
    return true;
  }

  close() {
    this.stopped = true;
    this.socket?.close();
  }
}

describe('kill -9 of one of two processes behind nginx, under load', () => {
  it('keeps every acknowledged save, moves the sockets to the survivor within 10 s, and fails fewer than 0.5% of requests', async () => {
    database = await createTestDatabase('postgres');
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_PREFIX: prefix,
      TRUST_PROXY: 'loopback',
    };
    const processes: ServerProcess[] = await Promise.all([startServer(env), startServer(env)]);
    const nginx = await startNginx({
      upstreams: processes.map((p) => `127.0.0.1:${p.port}`),
      showUpstream: true,
    });
    const base = nginx.http;
    const suffix = crypto.randomBytes(3).toString('hex');

    // The cast: authors who autosave, a herald whose followers hold the sockets.
    const ledger = new Ledger();
    const authors = await Promise.all(
      Array.from({ length: AUTHORS }, async (_, i) => {
        const user = await signupOver(base, `kill_author${i}_${suffix}`);
        const writer = await setUpBook(base, user.token, `Kept ${i}`, CHAPTERS_PER_BOOK, ledger);
        const list = await call(base, 'GET', `/api/authors/books/${writer.bookId}/chapters`, {
          token: user.token,
        });
        const versions = new Map<number, number>(
          (list.body.chapters as Array<{ id: number; version: number }>).map((c) => [
            c.id,
            c.version,
          ]),
        );
        return { name: `author${i}`, ...writer, versions };
      }),
    );
    const herald = await signupOver(base, `kill_herald_${suffix}`);
    const heraldBook = await setUpBook(base, herald.token, 'News', 1, new Ledger());
    const readerBooks = authors.map((a) => a.bookId);
    const readerChapters = [...authors.flatMap((a) => [...a.versions.keys()])];

    const tally = new Tally();
    const clients: LiveClient[] = [];
    for (let i = 0; i < NOTIFICATION_SOCKETS + CHAT_SOCKETS; i++) {
      const user = await signupOver(base, `kill_reader${i}_${suffix}`);
      const followed = await call(base, 'POST', '/api/follows', {
        token: user.token,
        body: { author_id: herald.id },
      });
      expect(followed.status).toBe(201);
      const path = i < NOTIFICATION_SOCKETS ? '/ws' : `/chat/${herald.username}`;
      clients.push(new LiveClient(nginx, tally, user.token, path));
    }
    await Promise.all(clients.map((c) => c.connect()));
    // The victim: the process holding more of the sockets (round robin shares them out).
    const address = (p: ServerProcess) => `127.0.0.1:${p.port}`;
    const on = (p: ServerProcess) => clients.filter((c) => c.opened[0]!.upstream === address(p));
    const [victim, survivor] =
      on(processes[0]!).length >= on(processes[1]!).length
        ? [processes[0]!, processes[1]!]
        : [processes[1]!, processes[0]!];
    const onVictim = on(victim);
    expect(onVictim.length).toBeGreaterThan(0);

    // The load: visitors reading, authors autosaving as the editor does (the text and the version
    // it started from; a failed save is sent again, the same, after a pause).
    let running = true;
    const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!;
    const reads = Array.from({ length: READERS }, async () => {
      while (running) {
        const url = pick([
          () => `/api/books/${pick(readerBooks)}`,
          () => `/api/books/${pick(readerBooks)}/chapters`,
          () => `/api/genres`,
          () => `/api/books?limit=10`,
          () => `/api/authors/${herald.username}`,
        ])();
        const answer = await call(base, 'GET', url);
        tally.count('read', answer.status);
        await sleep(20);
      }
    });
    let conflicts = 0;
    const saves = authors.map(async (author) => {
      for (let n = 1; running; n++) {
        const id = [...author.versions.keys()][n % CHAPTERS_PER_BOOK]!;
        const content = `<p>${author.name} save ${n}</p>`;
        const ack = ledger.attempt(id, 'content', content);
        for (let attempt = 0; attempt < 5; attempt++) {
          const answer: Answer = await call(
            base,
            'PUT',
            `/api/books/${author.bookId}/chapters/${id}`,
            { token: author.token, body: { content, version: author.versions.get(id) } },
          );
          tally.count('autosave', answer.status);
          if (ok(answer.status)) {
            ack();
            author.versions.set(id, answer.body.version);
            break;
          }
          if (answer.status === 409) {
            conflicts++;
            break;
          }
          await sleep(250);
        }
        await sleep(100);
      }
    });

    await sleep(LOAD_BEFORE_KILL_MS);
    const killedAt = Date.now();
    victim.child.kill('SIGKILL');
    await victim.exited;
    await sleep(LOAD_AFTER_KILL_MS);
    running = false;
    await Promise.all([...reads, ...saves]);

    // Sockets: each one the dead process held was lost, and reopened on the survivor in time.
    const reconnectMs: number[] = [];
    for (const client of clients) {
      expect(client.isOpen, `${client.path} open at the end`).toBe(true);
      expect(client.opened.at(-1)!.upstream).toBe(address(survivor));
      if (onVictim.includes(client)) {
        expect(client.lost.length).toBeGreaterThan(0);
        const reopened = client.opened.find((o) => o.at >= killedAt)!;
        reconnectMs.push(reopened.at - killedAt);
      } else {
        expect(client.lost).toEqual([]);
      }
    }
    // The reopened sockets work: the herald's next chapter reaches every follower's.
    const chapter = await call(base, 'POST', `/api/books/${heraldBook.bookId}/chapters`, {
      token: herald.token,
      body: { title: 'After the fall' },
    });
    const published = await call(
      base,
      'PUT',
      `/api/books/${heraldBook.bookId}/chapters/${chapter.body.id}`,
      { token: herald.token, body: { is_published: true } },
    );
    expect(published.status).toBe(200);
    const deadline = Date.now() + 5_000;
    const heard = (c: LiveClient) => c.frames.some((f) => f.type === 'CHAPTER');
    const notified = clients.slice(0, NOTIFICATION_SOCKETS);
    while (!notified.every(heard) && Date.now() < deadline) await sleep(50);
    expect(notified.filter((c) => !heard(c)).map((c) => c.path)).toEqual([]);
    for (const client of clients) client.close();

    // Every acknowledged save is what the database holds (or a later save that got no answer).
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const { rows } = await client.query<{ id: number; content: string }>(
      'select id, content from chapters where id = any($1)',
      [readerChapters],
    );
    await client.end();
    const stored = new Map(rows.map((r) => [r.id, { content: r.content, published: false }]));
    const violations = ledger.verify(stored).filter((v) => v.field === 'content');

    // What nginx sent to the next process (proxy_next_upstream): "$upstream_addr" lists both.
    const retried = new Map<string, number>();
    for (const line of nginx.accessLog().split('\n')) {
      const match = /"(\w+) \S+ [^"]+" (\d+) .*"([^"]*, [^"]*)"/.exec(line);
      if (match) {
        const key = `${match[1]} ${match[2]}`;
        retried.set(key, (retried.get(key) ?? 0) + 1);
      }
    }

    const share = tally.failed / tally.total;
    console.log(
      `nginx, kill -9 of one of two processes under load: ${tally.failed} of ${tally.total} requests failed ` +
        `(${(share * 100).toFixed(3)}%, bound 0.5%); ${ledger.acknowledged} saves acknowledged, ` +
        `${violations.length} lost, ${conflicts} conflicts; ${onVictim.length} of ${clients.length} sockets ` +
        `were on the killed process and reopened on the survivor after ${reconnectMs.join(', ')} ms ` +
        `(bound ${RECONNECT_BOUND_MS} ms). By kind: ${tally.describe()}. Passed by nginx to the ` +
        `survivor after the dead process failed them: ${JSON.stringify(Object.fromEntries(retried))}`,
    );
    expect(violations).toEqual([]);
    expect(conflicts).toBe(0);
    expect(Math.max(...reconnectMs)).toBeLessThan(RECONNECT_BOUND_MS);
    expect(tally.total).toBeGreaterThan(500);
    expect(share).toBeLessThan(MAX_FAILED_SHARE);
  }, 120_000);
});
