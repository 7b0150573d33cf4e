/**
 * The soak: `npm run test:soak` (SOAK_SECONDS=30 for a short run). Two real server processes on a
 * fresh PostgreSQL database and the local Redis (under a prefix of their own), with readers
 * browsing, authors autosaving and publishing, notification sockets open and a busy chat room,
 * all on 127.0.0.1. Prints its figures and exits non-zero when a target is missed:
 * zero errors, p99 under 300 ms, memory flat after warm-up (< 20 %), every acknowledged write present.
 *
 * Knobs: SOAK_SECONDS (300), SOAK_READERS (200), SOAK_AUTHORS (20), SOAK_SOCKETS (500),
 * SOAK_CHATTERS (25), SOAK_REDIS_URL (redis://127.0.0.1:6379), SOAK_DEBUG=1 logs every request
 * slower than 300 ms with its time.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import { createTestDatabase, POSTGRES_ADMIN_URL } from '../helpers/database.ts';
import { dropRedisKeys } from '../helpers/live.ts';
import { checkIntegrity } from '../reliability/helpers/integrity.ts';
import { Ledger, type StoredChapter } from '../reliability/helpers/ledger.ts';
import {
  memoryOf,
  startServer,
  stopAllServers,
  type ServerProcess,
} from '../reliability/helpers/process.ts';
import { call, signupOver, storedChapters, type Answer } from '../reliability/helpers/workload.ts';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SECONDS = env('SOAK_SECONDS', 300);
const READERS = env('SOAK_READERS', 200);
const AUTHORS = env('SOAK_AUTHORS', 20);
const SOCKETS = env('SOAK_SOCKETS', 500);
const SOCKETS_PER_USER = 5;
const CHATTERS = env('SOAK_CHATTERS', 25);
const AUTOSAVE_MS = 5_000;
const CHAT_EVERY_MS = 2_000;
/** A reader's pause between two pages: people read. */
const READER_THINK_MS = [500, 1_500] as const;
const TARGET_P99_MS = 300;
const TARGET_MEMORY_GROWTH = 0.2;
const REDIS_URL = process.env.SOAK_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The soak reads each server's own latency histogram from /metrics. */
const METRICS_TOKEN = 'soak-metrics-token-0123456789';
/** Hard caps, whatever the clock says: no loop runs away. */
const MAX_REQUESTS_PER_READER = Math.ceil((SECONDS * 1000) / READER_THINK_MS[0]) + 10;
const MAX_ROUNDS_PER_AUTHOR = Math.ceil((SECONDS * 1000) / AUTOSAVE_MS) + 2;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const between = ([low, high]: readonly [number, number]) => low + Math.random() * (high - low);
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

/** The soak only ever loads this machine. */
function localOnly(url: string): void {
  const host = new URL(url).hostname;
  if (host !== '127.0.0.1' && host !== 'localhost')
    throw new Error(`the soak only targets 127.0.0.1, not ${url}`);
}
localOnly(REDIS_URL);
localOnly(POSTGRES_ADMIN_URL);

/** Everything the run counts. */
const figures = {
  requests: 0,
  latenciesMs: [] as number[],
  latenciesByKind: new Map<string, number[]>(),
  errors: new Map<string, number>(),
  socketsOpened: 0,
  socketsDropped: 0,
  notificationsExpected: 0,
  notificationsReceived: 0,
  chatSent: 0,
  chatDelivered: 0,
  chatRefused: 0,
  autosaves: 0,
  published: 0,
  memory: new Map<string, number[]>(),
  /** The load generator's own event-loop delay: latency it adds to every figure above. */
  generatorLagP99Ms: NaN,
  /** Latencies and the machine's load average per tenth of the run, to tell a trend from a noisy neighbour. */
  timeline: [] as Array<{ latenciesMs: number[]; load: number[] }>,
  runStartMs: 0,
  /** Per process, the p99 bucket of the server's own request-duration histogram (/metrics). */
  serverP99Ms: [] as string[],
};

/**
 * The smallest histogram bound under which 99 % of the requests fell, from Prometheus text:
 * the server's own view of its latency, without the network or the load generator.
 */
function p99FromMetrics(text: string): string {
  const byBound = new Map<string, number>();
  for (const [, labels, count] of text.matchAll(
    /^http_request_duration_seconds_bucket\{(.*)\} (\d+)$/gm,
  )) {
    if (/route="\/(metrics|healthz|readyz)"/.test(labels!)) continue;
    const bound = /le="([^"]+)"/.exec(labels!)![1]!;
    byBound.set(bound, (byBound.get(bound) ?? 0) + Number(count));
  }
  const total = byBound.get('+Inf') ?? 0;
  const bounds = [...byBound.keys()]
    .filter((b) => b !== '+Inf')
    .sort((a, b) => Number(a) - Number(b));
  const bound = bounds.find((b) => byBound.get(b)! >= total * 0.99);
  return bound ? `<= ${Number(bound) * 1000} ms` : '> 10 s';
}

function error(kind: string) {
  figures.errors.set(kind, (figures.errors.get(kind) ?? 0) + 1);
}

function windowNow() {
  const index = Math.max(
    0,
    Math.min(9, Math.floor(((Date.now() - figures.runStartMs) / (SECONDS * 1000)) * 10)),
  );
  figures.timeline[index] ??= { latenciesMs: [], load: [] };
  return figures.timeline[index];
}

/** A timed request; anything but 2xx counts as an error of its route. */
async function timed(
  base: string,
  method: string,
  url: string,
  what: string,
  options: Parameters<typeof call>[3] = {},
): Promise<Answer> {
  const started = performance.now();
  const answer = await call(base, method, url, options);
  const elapsed = performance.now() - started;
  if (process.env.SOAK_DEBUG && elapsed > 300)
    console.log(
      `slow ${what} ${elapsed.toFixed(0)} ms at ${new Date().toISOString().slice(11, 23)}`,
    );
  figures.latenciesMs.push(elapsed);
  windowNow().latenciesMs.push(elapsed);
  const ofKind = figures.latenciesByKind.get(what);
  if (ofKind) ofKind.push(elapsed);
  else figures.latenciesByKind.set(what, [elapsed]);
  figures.requests++;
  if (answer.status < 200 || answer.status >= 300) error(`${what} -> ${answer.status}`);
  return answer;
}

interface Author {
  id: number;
  username: string;
  token: string;
  bookId: number;
  /** The draft chapter the author keeps autosaving. */
  workingChapter: number;
}

interface World {
  servers: ServerProcess[];
  authors: Author[];
  bookIds: number[];
  chapterIds: number[];
}

const server = (world: World) => pick(world.servers).http;

async function setUpAuthor(world: World, index: number, suffix: string): Promise<Author> {
  const base = world.servers[index % world.servers.length]!.http;
  const user = await signupOver(base, `soak_author_${index}_${suffix}`);
  const token = user.token;
  const title = `Soak Book ${index}`;
  const book = await call(base, 'POST', '/api/books', { token, body: { title } });
  await call(base, 'PUT', `/api/books/${book.body.id}`, {
    token,
    body: { title, summary: `A book for the soak, number ${index}.`, is_published: true },
  });
  const paragraph =
    '<p>' +
    'The river ran on through the night, and nobody in the village slept. '.repeat(20) +
    '</p>';
  for (let n = 1; n <= 4; n++) {
    const chapter = await call(base, 'POST', `/api/books/${book.body.id}/chapters`, {
      token,
      body: { title: `Chapter ${n}`, content: paragraph.repeat(3) },
    });
    await call(base, 'PUT', `/api/books/${book.body.id}/chapters/${chapter.body.id}`, {
      token,
      body: { is_published: true },
    });
    world.chapterIds.push(chapter.body.id);
  }
  const working = await call(base, 'POST', `/api/books/${book.body.id}/chapters`, {
    token,
    body: { title: 'Work in progress', content: '<p>draft</p>' },
  });
  world.bookIds.push(book.body.id);
  return {
    id: user.id,
    username: user.username,
    token,
    bookId: book.body.id,
    workingChapter: working.body.id,
  };
}

/** One reader: browse, open books, read chapters, search; a pause between pages. */
async function reader(world: World, deadline: number) {
  const words = ['river', 'night', 'village', 'soak', 'book', 'slept'];
  // Readers arrive over the first pause, as people do, not all in the same millisecond.
  await sleep(Math.random() * READER_THINK_MS[1]);
  for (let n = 0; n < MAX_REQUESTS_PER_READER && Date.now() < deadline; n++) {
    const roll = Math.random();
    const base = server(world);
    if (roll < 0.2)
      await timed(
        base,
        'GET',
        `/api/books?limit=10&offset=${10 * Math.floor(Math.random() * 3)}`,
        'browse',
      );
    else if (roll < 0.4) await timed(base, 'GET', `/api/books/${pick(world.bookIds)}`, 'book');
    else if (roll < 0.5)
      await timed(base, 'GET', `/api/books/${pick(world.bookIds)}/chapters`, 'chapters');
    else if (roll < 0.8)
      await timed(base, 'GET', `/api/chapters/${pick(world.chapterIds)}`, 'read');
    else if (roll < 0.87) await timed(base, 'GET', `/api/books/search?q=${pick(words)}`, 'search');
    else if (roll < 0.93)
      await timed(base, 'GET', `/api/authors/${pick(world.authors).id}`, 'author');
    else
      await timed(
        base,
        'GET',
        pick(['/api/popular/books', '/api/recent/books', '/api/home/authors', '/api/genres']),
        'home',
      );
    await sleep(between(READER_THINK_MS));
  }
}

/** One author: an autosave every 5 s; every sixth round a new chapter is published (followers get a CHAPTER). */
async function author(world: World, me: Author, ledger: Ledger, deadline: number) {
  await sleep(Math.random() * AUTOSAVE_MS);
  for (let round = 1; round <= MAX_ROUNDS_PER_AUTHOR && Date.now() < deadline; round++) {
    const base = server(world);
    const content = `<p>${me.username} autosave ${round} ${crypto.randomBytes(8).toString('hex')}</p>`;
    const ack = ledger.attempt(me.workingChapter, 'content', content);
    const saved = await timed(
      base,
      'PUT',
      `/api/books/${me.bookId}/chapters/${me.workingChapter}`,
      'autosave',
      { token: me.token, body: { content } },
    );
    if (saved.status === 200) {
      ack();
      figures.autosaves++;
    }
    if (round % 6 === 0) {
      const chapter = await timed(base, 'POST', `/api/books/${me.bookId}/chapters`, 'new chapter', {
        token: me.token,
        body: { title: `Chapter at ${round}` },
      });
      if (chapter.status === 201) {
        const published = await timed(
          base,
          'PUT',
          `/api/books/${me.bookId}/chapters/${chapter.body.id}`,
          'publish',
          { token: me.token, body: { is_published: true } },
        );
        if (published.status === 200) {
          figures.published++;
          world.chapterIds.push(chapter.body.id);
          figures.notificationsExpected += followerSockets.get(me.id) ?? 0;
        }
      }
    }
    await sleep(AUTOSAVE_MS);
  }
}

/** Notification sockets of each followed author: how many CHAPTER frames one publication should produce. */
const followerSockets = new Map<number, number>();
const openSockets = new Set<WebSocket>();
let closing = false;

interface Frame {
  type?: string;
  user?: string;
}

function openSocket(url: string, onMessage: (frame: Frame) => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once('open', () => {
      figures.socketsOpened++;
      openSockets.add(socket);
      resolve(socket);
    });
    socket.once('error', reject);
    socket.on('message', (data) => onMessage(JSON.parse(data.toString())));
    socket.on('close', (code) => {
      openSockets.delete(socket);
      if (!closing) {
        figures.socketsDropped++;
        error(`socket closed ${code}`);
      }
    });
  });
}

async function main() {
  const started = Date.now();
  const suffix = crypto.randomBytes(3).toString('hex');
  const prefix = `inkwell-soak-${suffix}`;
  const database = await createTestDatabase('postgres');
  const world: World = { servers: [], authors: [], bookIds: [], chapterIds: [] };
  const ledger = new Ledger();
  console.log(
    `soak: ${SECONDS} s on PostgreSQL, 2 processes, Redis ${REDIS_URL} (prefix ${prefix})`,
  );
  try {
    const serverEnv = {
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_PREFIX: prefix,
      LOG_LEVEL: 'warn',
      METRICS_TOKEN,
      // Every simulated person comes from this one machine's address.
      RATE_LIMIT_SIGNUP: 'off',
      RATE_LIMIT_LOGIN: 'off',
      RATE_LIMIT_SOCKETS: 'off',
    };
    // One after the other: each runs the migrations as it starts.
    world.servers.push(await startServer(serverEnv));
    world.servers.push(await startServer(serverEnv));

    for (let i = 0; i < AUTHORS; i += 4) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(4, AUTHORS - i) }, (_, k) =>
          setUpAuthor(world, i + k, suffix),
        ),
      );
      world.authors.push(...batch);
    }

    // Socket owners: each follows three authors, keeps five notification sockets (tabs) across both processes.
    const socketUsers = Math.ceil(SOCKETS / SOCKETS_PER_USER);
    const users: Array<{ id: number; token: string; username: string }> = [];
    for (let i = 0; i < socketUsers; i += 8) {
      users.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(8, socketUsers - i) }, (_, k) =>
            signupOver(server(world), `soak_reader_${i + k}_${suffix}`),
          ),
        )),
      );
    }
    let opened = 0;
    for (const user of users) {
      const followed = new Set<Author>();
      while (followed.size < Math.min(3, world.authors.length)) followed.add(pick(world.authors));
      for (const a of followed)
        await call(server(world), 'POST', '/api/follows', {
          token: user.token,
          body: { author_id: a.id },
        });
      for (let s = 0; s < SOCKETS_PER_USER && opened < SOCKETS; s++, opened++) {
        const ws = world.servers[opened % 2]!.ws;
        await openSocket(`${ws}/ws?token=${user.token}`, (message) => {
          if (message.type === 'CHAPTER') figures.notificationsReceived++;
        });
        for (const a of followed) followerSockets.set(a.id, (followerSockets.get(a.id) ?? 0) + 1);
      }
    }
    const room = world.authors[0]!.username;
    const chatters: WebSocket[] = [];
    for (const [i, user] of users.slice(0, CHATTERS).entries()) {
      const ws = world.servers[i % 2]!.ws;
      chatters.push(
        await openSocket(`${ws}/chat/${room}?token=${user.token}`, (message) => {
          if (message.type === 'error') {
            figures.chatRefused++;
            error('chat refused');
          } else if (message.user !== 'server') figures.chatDelivered++;
        }),
      );
    }
    console.log(
      `setup: ${AUTHORS} authors, ${users.length} readers with ${opened} sockets, ${chatters.length} in chat, in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );

    // The run.
    const runStart = Date.now();
    const generatorLag = monitorEventLoopDelay({ resolution: 10 });
    generatorLag.enable();
    const deadline = runStart + SECONDS * 1000;
    const warmUpEnd = runStart + Math.max(10_000, SECONDS * 200);
    figures.runStartMs = runStart;
    const sampler = setInterval(() => {
      windowNow().load.push(os.loadavg()[0]!);
      if (Date.now() < warmUpEnd) return;
      for (const [i, s] of world.servers.entries()) {
        const name = `process ${i + 1}`;
        const samples = figures.memory.get(name) ?? [];
        samples.push(memoryOf(s.child.pid!).rssKb);
        figures.memory.set(name, samples);
      }
    }, 1_000);
    const chat = chatters.map(async (socket, i) => {
      await sleep(Math.random() * CHAT_EVERY_MS);
      for (let n = 0; n < SECONDS && Date.now() < deadline; n++) {
        if (socket.readyState !== WebSocket.OPEN) return;
        socket.send(`<p>line ${n} from chatter ${i}</p>`);
        figures.chatSent++;
        await sleep(CHAT_EVERY_MS);
      }
    });
    await Promise.all([
      ...Array.from({ length: READERS }, () => reader(world, deadline)),
      ...world.authors.map((a) => author(world, a, ledger, deadline)),
      ...chat,
    ]);
    clearInterval(sampler);
    generatorLag.disable();
    figures.generatorLagP99Ms = generatorLag.percentile(99) / 1e6;
    for (const s of world.servers)
      figures.serverP99Ms.push(
        p99FromMetrics((await call(s.http, 'GET', '/metrics', { token: METRICS_TOKEN })).body),
      );
    // Let the last frames arrive.
    await sleep(2_000);

    // Every acknowledged autosave is there, and the database is sound.
    const stored = new Map<number, StoredChapter | undefined>();
    for (const a of world.authors) {
      for (const [id, chapter] of await storedChapters(world.servers[0]!.http, {
        token: a.token,
        bookId: a.bookId,
      }))
        stored.set(id, chapter);
    }
    const lost = ledger.verify(stored);
    const integrity = await checkIntegrity(database.url);

    closing = true;
    for (const socket of openSockets) socket.close();
    report({ lost: lost.length, integrity, chatMembers: chatters.length });
  } finally {
    closing = true;
    for (const socket of openSockets) socket.terminate();
    await stopAllServers();
    await dropRedisKeys(prefix, REDIS_URL).catch(() => undefined);
    await database.drop();
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0
    ? NaN
    : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function report({
  lost,
  integrity,
  chatMembers,
}: {
  lost: number;
  integrity: Awaited<ReturnType<typeof checkIntegrity>>;
  chatMembers: number;
}) {
  const sorted = [...figures.latenciesMs].sort((a, b) => a - b);
  const p99 = percentile(sorted, 99);
  const errors = [...figures.errors.values()].reduce((a, b) => a + b, 0);
  const missedNotifications = figures.notificationsExpected - figures.notificationsReceived;
  const chatExpected = figures.chatSent * chatMembers;
  const memoryLines: string[] = [];
  let memoryOk = true;
  // RSS rises and falls with each garbage collection; compare the typical level of the first
  // quarter after warm-up with that of the last quarter, not two arbitrary instants.
  const median = (values: number[]) =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  for (const [name, samples] of figures.memory) {
    if (samples.length < 4) continue;
    const quarter = Math.max(1, Math.floor(samples.length / 4));
    const [first, last] = [median(samples.slice(0, quarter)), median(samples.slice(-quarter))];
    const growth = (last - first) / first;
    memoryOk &&= growth < TARGET_MEMORY_GROWTH;
    memoryLines.push(
      `  ${name}: ${(first / 1024).toFixed(0)} MB after warm-up -> ${(last / 1024).toFixed(0)} MB at the end (medians of the first and last quarter: ${(growth * 100).toFixed(1)} %; max ${(Math.max(...samples) / 1024).toFixed(0)} MB)`,
    );
  }
  const clean =
    Object.keys(integrity.orphans).length === 0 && Object.keys(integrity.orderGaps).length === 0;
  const checks = {
    'zero errors':
      errors === 0 && missedNotifications === 0 && figures.chatDelivered >= chatExpected,
    [`p99 < ${TARGET_P99_MS} ms`]: p99 < TARGET_P99_MS,
    'memory flat (< 20 % after warm-up)': memoryOk && memoryLines.length > 0,
    'every acknowledged write present': lost === 0 && clean,
  };
  const lines = [
    '',
    `requests          ${figures.requests} (${(figures.requests / SECONDS).toFixed(0)}/s), errors ${errors}${errors ? ': ' + JSON.stringify(Object.fromEntries(figures.errors)) : ''}`,
    `latency (ms)      p50 ${percentile(sorted, 50).toFixed(1)}, p95 ${percentile(sorted, 95).toFixed(1)}, p99 ${p99.toFixed(1)}, max ${(sorted.at(-1) ?? NaN).toFixed(1)}`,
    `  by kind (p99)   ${[...figures.latenciesByKind]
      .map(
        ([kind, ms]) =>
          `${kind} ${percentile(
            ms.sort((a, b) => a - b),
            99,
          ).toFixed(0)}`,
      )
      .join(', ')}`,
    `  server side     p99 ${figures.serverP99Ms.join(' and ')} (request-duration histograms of the two processes)`,
    `  load generator  event-loop delay p99 ${figures.generatorLagP99Ms.toFixed(1)} ms`,
    `sockets           ${figures.socketsOpened} opened (${SOCKETS} notification + ${chatMembers} chat), ${figures.socketsDropped} dropped`,
    `notifications     ${figures.notificationsReceived}/${figures.notificationsExpected} CHAPTER frames delivered for ${figures.published} publications`,
    `chat              ${figures.chatSent} lines sent, ${figures.chatDelivered}/${chatExpected} deliveries, ${figures.chatRefused} refused`,
    `autosaves         ${figures.autosaves} acknowledged, ${lost} missing at the end; integrity ${integrity.engineCheck}, orphans ${JSON.stringify(integrity.orphans)}, order gaps ${JSON.stringify(integrity.orderGaps)}`,
    `timeline          p99 ms (machine load) per tenth of the run: ${figures.timeline
      .map(
        (w) =>
          `${percentile(
            w.latenciesMs.sort((a, b) => a - b),
            99,
          ).toFixed(
            0,
          )} (${(w.load.reduce((a, b) => a + b, 0) / Math.max(1, w.load.length)).toFixed(1)})`,
      )
      .join(', ')}`,
    'memory (RSS)',
    ...memoryLines,
    '',
    ...Object.entries(checks).map(([name, ok]) => `${ok ? 'PASS' : 'FAIL'}  ${name}`),
  ];
  console.log(lines.join('\n'));
  process.exitCode = Object.values(checks).every(Boolean) ? 0 : 1;
}

await main();
