/**
 * AO3's average day on one small box (issue 22 §5): `npm run bench:mixed -- --size L --keep`.
 *
 * Two `npm start` processes on one PostgreSQL and Redis behind nginx (round robin, the shipped
 * deploy/nginx/inkwell.conf), loaded with a mix of calls over a Zipf-distributed choice of books
 * and chapters (bench/suites/mixed.ts). Prints req/s, p50 and p99 per kind, the answer cache's hit
 * ratio and the CPU each process used, and writes them to bench/results/mixed-<engine>-<size>.json.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { api } from './lib/api.ts';
import type { Engine } from './lib/bulk.ts';
import { loadCorpus } from './lib/corpus.ts';
import { printProfile, summarizeProfile } from './lib/cpuprofile.ts';
import { datasetDatabase, writableCopy } from './lib/databases.ts';
import { runMixedLoad, type MixedResult } from './lib/mixed-load.ts';
import { startNginxFront, type Front } from './lib/nginx-front.ts';
import { searchQueries } from './lib/queries.ts';
import { seededRandom } from './lib/random.ts';
import { environment, markdownTable, RESULTS_DIR, writeResults, type Row } from './lib/report.ts';
import { cpuSecondsOf, startServer, type RunningProcess } from './lib/server.ts';
import { MIX, mixedRequests } from './suites/mixed.ts';
import { autosaveHtml, autosaveTargets } from './suites/writes.ts';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: 'L' },
    engine: { type: 'string', default: 'postgres' },
    processes: { type: 'string', default: '2' },
    // Without nginx: the load goes straight to the one process (--processes 1).
    front: { type: 'string', default: 'nginx' },
    connections: { type: 'string', default: '32' },
    duration: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '10' },
    keep: { type: 'boolean', default: false },
    // Settings for the processes, e.g. --server-env READ_CACHE_MAX_AGE_SECONDS=30,DB_POOL_SIZE=20
    'server-env': { type: 'string', default: '' },
    // Profile the first process (node --cpu-prof) and print where its CPU went.
    profile: { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});

const TARGET = { rps: 3_000, p99: 100 };
const METRICS_TOKEN = crypto.randomBytes(16).toString('hex');
const log = (line: string) => console.log(line);
const processes = Number(values.processes);
if (values.front !== 'nginx' && values.front !== 'direct')
  throw new Error(`--front is nginx or direct, not ${values.front}`);
if (values.front === 'direct' && processes !== 1)
  throw new Error('--front direct loads one process: add --processes 1');

const database = await datasetDatabase({
  engine: values.engine as Engine,
  size: values.size!,
  keep: values.keep,
  log,
});
const work = await writableCopy(database);
const serverEnv = Object.fromEntries(
  values['server-env']!.split(',')
    .filter(Boolean)
    .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);
const redisPrefix = `inkwell-mixed-${crypto.randomBytes(4).toString('hex')}`;
const profileDir = values.profile
  ? fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-mixed-profile-'))
  : undefined;
const servers: RunningProcess[] = [];
let front: Front | undefined;
try {
  for (let i = 0; i < processes; i++)
    servers.push(
      await startServer({
        databaseUrl: work.url,
        ...(profileDir &&
          i === 0 && { nodeOptions: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] }),
        env: {
          ...(work.engine === 'postgres' && {
            REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
            REDIS_PREFIX: redisPrefix,
          }),
          TRUST_PROXY: 'loopback',
          METRICS_TOKEN,
          ...serverEnv,
        },
      }),
    );
  front =
    values.front === 'nginx'
      ? await startNginxFront(servers.map((s) => `127.0.0.1:${s.port}`))
      : { url: servers[0]!.url, stop: async () => {} };

  const corpus = await loadCorpus(seededRandom(1));
  const { genres } = await api<{ genres: Array<{ name: string }> }>(
    front.url,
    'GET',
    '/api/genres',
  );
  const { drafts } = await autosaveTargets(servers[0]!, work.info, corpus, 10);
  const next = mixedRequests({
    info: work.info,
    queries: searchQueries(corpus, 200),
    genres: genres.map((g) => g.name),
    drafts,
    autosaveHtml: autosaveHtml(corpus),
    readers: Math.min(work.info.followers, 5_000),
  });
  const settings = { connections: Number(values.connections), duration: Number(values.duration) };

  log(`warming up for ${values.warmup} s`);
  await runMixedLoad(front.url, { ...settings, duration: Number(values.warmup) }, next);
  const lookupsBefore = await cacheLookups(servers);
  const cpuBefore = cpuOf(servers);
  log(`measuring for ${values.duration} s at ${settings.connections} connections`);
  const result = await runMixedLoad(front.url, settings, next);
  const cpu = cpuUsed(cpuBefore, cpuOf(servers), result.seconds);
  const lookupsAfter = await cacheLookups(servers);
  const hits = lookupsAfter.hit - lookupsBefore.hit;
  const misses = lookupsAfter.miss - lookupsBefore.miss;
  const hitRatio = hits + misses > 0 ? hits / (hits + misses) : 0;

  const rows = report(result, { hitRatio, cpu });
  const name = values.out ?? `mixed-${values.engine}-${values.size}`;
  const file = writeResults(`${name}.json`, {
    environment: environment({ ...values, mix: MIX }),
    rows,
    result,
    hitRatio,
    cpu,
  });
  log(`results in ${file}`);
} finally {
  await front?.stop();
  await Promise.all(servers.map((s) => s.stop()));
  if (profileDir) printFirstProcessProfile(profileDir);
  // A kept PostgreSQL dataset is the same database (writableCopy): drop() keeps it.
  if (work !== database) await work.drop();
  await database.drop();
}

function report(result: MixedResult, extra: { hitRatio: number; cpu: Record<string, number> }) {
  const label = { suite: 'mixed' as const, engine: values.engine, size: values.size };
  const rows: Row[] = Object.entries(result.byKind).map(([kind, k]) => ({
    ...label,
    name: kind,
    rps: k.rps,
    p50: k.p50,
    p99: k.p99,
    errors: k.errors,
  }));
  rows.push({
    ...label,
    name: `all (${processes} processes${values.front === 'nginx' ? ' behind nginx' : ''})`,
    rps: result.rps,
    p50: result.p50,
    p99: result.p99,
    errors: result.errors,
    target: `≥ ${TARGET.rps} req/s, p99 ≤ ${TARGET.p99} ms, 0 errors`,
    pass: result.rps >= TARGET.rps && result.p99 <= TARGET.p99 && result.errors === 0,
  });
  log(markdownTable(rows));
  log(`answer cache hit ratio: ${(extra.hitRatio * 100).toFixed(1)} %`);
  log(
    `CPU (cores): ${Object.entries(extra.cpu)
      .map(([who, cores]) => `${who} ${cores.toFixed(2)}`)
      .join(', ')}`,
  );
  return rows;
}

/** Where the first process's CPU went during the measured run (its last `duration` seconds). */
function printFirstProcessProfile(dir: string) {
  const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) return log('the profiled process wrote no profile');
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const kept = path.join(RESULTS_DIR, `profile-mixed-${values.engine}-${values.size}.cpuprofile`);
  fs.copyFileSync(path.join(dir, file), kept);
  fs.rmSync(dir, { recursive: true, force: true });
  const windowMs = Number(values.duration) * 1000;
  printProfile(summarizeProfile(kept, 30, { windowMs, tailMs: 1_000 }), log);
  log(`profile kept in ${path.relative(process.cwd(), kept)}`);
}

/** The answer cache's lookups, summed over the processes (their /metrics). */
async function cacheLookups(list: RunningProcess[]) {
  const total = { hit: 0, miss: 0 };
  for (const server of list) {
    const res = await fetch(`${server.url}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    const text = await res.text();
    for (const result of ['hit', 'miss'] as const) {
      const match = new RegExp(
        `^answer_cache_lookups_total\\{result="${result}"\\} (\\S+)$`,
        'm',
      ).exec(text);
      total[result] += Number(match?.[1] ?? 0);
    }
  }
  return total;
}

/** CPU seconds used so far by each backend, nginx, the load generator, PostgreSQL and Redis. */
function cpuOf(list: RunningProcess[]): Record<string, number> {
  const seconds: Record<string, number> = {};
  list.forEach((server, i) => (seconds[`process ${i + 1}`] = cpuSecondsOf(server.pid)));
  seconds.nginx = pidsNamed('nginx').reduce((sum, pid) => sum + cpuSecondsOf(pid), 0);
  const own = process.cpuUsage();
  seconds['load generator'] = (own.user + own.system) / 1e6;
  seconds.postgres = pidsNamed('postgres').reduce((sum, pid) => sum + cpuSecondsOf(pid), 0);
  seconds.redis = pidsNamed('redis-server').reduce((sum, pid) => sum + cpuSecondsOf(pid), 0);
  return seconds;
}

/** Cores used on average: CPU seconds over the run's seconds. */
function cpuUsed(before: Record<string, number>, after: Record<string, number>, seconds: number) {
  return Object.fromEntries(
    Object.keys(after).map((who) => [who, (after[who]! - (before[who] ?? 0)) / seconds]),
  );
}

/** Pids of the processes whose command is `name` (PostgreSQL's backends, Redis), from /proc. */
function pidsNamed(name: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === name;
      } catch {
        return false;
      }
    })
    .map(Number);
}
