/**
 * Inkwell's benchmark suite: `npm run bench` (everything) or `npm run bench:smoke` (about ten
 * seconds of load, to keep the suite working). Prints a table and writes bench/results/*.json and
 * bench/results/growth.svg. Every load goes to 127.0.0.1 only; every run is bounded in time.
 * See bench/README.md for what is measured, how, and the latest figures.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Engine } from './lib/bulk.ts';
import { lineChartSvg, type Panel } from './lib/chart.ts';
import { loadCorpus } from './lib/corpus.ts';
import { SIZES } from './lib/dataset.ts';
import { datasetDatabase, writableCopy, type BenchDatabase } from './lib/databases.ts';
import { getPaths, type LoadSettings } from './lib/load.ts';
import { searchQueries } from './lib/queries.ts';
import { seededRandom } from './lib/random.ts';
import { environment, markdownTable, RESULTS_DIR, writeResults, type Row } from './lib/report.ts';
import { startServer, type RunningProcess } from './lib/server.ts';
import { measureChat } from './suites/chat.ts';
import { measureFanout } from './suites/fanout.ts';
import { COMMENT_LIST_CASE, measureReads, readCases, type ReadCase } from './suites/reads.ts';
import { buildWeb, bundleSizes, lighthouse } from './suites/web.ts';
import { measureWrites } from './suites/writes.ts';

const { values } = parseArgs({
  // --no-lighthouse turns the Lighthouse run off.
  allowNegative: true,
  options: {
    smoke: { type: 'boolean', default: false },
    suites: { type: 'string' },
    engines: { type: 'string' },
    size: { type: 'string' },
    growth: { type: 'string' },
    'growth-engines': { type: 'string' },
    'search-only': { type: 'string' },
    'skip-growth': { type: 'string' },
    duration: { type: 'string' },
    warmup: { type: 'string' },
    connections: { type: 'string', default: '10' },
    slices: { type: 'string' },
    followers: { type: 'string' },
    'chat-members': { type: 'string' },
    'chat-rates': { type: 'string' },
    'chat-seconds': { type: 'string' },
    lighthouse: { type: 'boolean' },
    fresh: { type: 'boolean', default: false },
    // Keep PostgreSQL datasets between runs, as SQLite's are (write suites change them a little).
    keep: { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});

const smoke = values.smoke!;
const list = (value: string | undefined, fallback: string) =>
  (value ?? fallback)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const options = {
  // The smoke run leaves out the web suite: building the app takes longer than all its load.
  suites: new Set(
    list(values.suites, smoke ? 'reads,writes,fanout,chat' : 'reads,writes,fanout,chat,web'),
  ),
  engines: list(values.engines, smoke ? 'sqlite' : 'sqlite,postgres') as Engine[],
  size: values.size ?? (smoke ? 'XS' : 'S'),
  growth: list(values.growth, smoke ? '' : 'S,M'),
  growthEngines: list(
    values['growth-engines'],
    values.engines ?? (smoke ? 'sqlite' : 'sqlite,postgres'),
  ) as Engine[],
  searchOnly: new Set(list(values['search-only'], 'L')),
  // engine:size pairs left out of the growth curve (e.g. postgres:L when generating it takes too long).
  skipGrowth: new Set(list(values['skip-growth'], '')),
  settings: {
    connections: Number(values.connections),
    duration: Number(values.duration ?? (smoke ? 1 : 6)),
    slices: Number(values.slices ?? (smoke ? 1 : 3)),
  } satisfies LoadSettings & { slices: number },
  warmup: Number(values.warmup ?? (smoke ? 0 : 1)),
  followers: Number(values.followers ?? (smoke ? 300 : 10_000)),
  chatMembers: Number(values['chat-members'] ?? (smoke ? 50 : 500)),
  chatRates: list(values['chat-rates'], smoke ? '20' : '50,100,200').map(Number),
  chatSeconds: Number(values['chat-seconds'] ?? (smoke ? 1 : 3)),
  lighthouse: values.lighthouse ?? !smoke,
};
for (const size of [options.size, ...options.growth])
  if (!SIZES[size]) throw new Error(`unknown size ${size}`);

const started = performance.now();
const log = (line: string) => console.log(line);
const rows: Row[] = [];
const details: Record<string, unknown> = {};
const env = environment({
  ...options,
  suites: [...options.suites],
  searchOnly: [...options.searchOnly],
  skipGrowth: [...options.skipGrowth],
  smoke,
});
log(
  `Inkwell benchmarks — ${env.cpus} × ${env.cpuModel}, load average ${env.loadBefore.join(' ')}, node ${env.node}`,
);
log(
  `settings: ${options.settings.connections} connections, ${options.settings.duration} s per measurement in ${options.settings.slices} slice(s) alternating with the ceiling, warm-up ${options.warmup} s`,
);

const corpus = await loadCorpus(seededRandom(1));
const queries = searchQueries(corpus);
details.queries = queries;

/** Starts the server, runs `work`, always stops it. */
async function withServer<T>(
  url: string,
  work: (server: RunningProcess) => Promise<T>,
  env: Record<string, string> = {},
): Promise<T> {
  const server = await startServer({ databaseUrl: url, env });
  try {
    return await work(server);
  } finally {
    await server.stop();
  }
}

const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;

function datasetRow(database: BenchDatabase): Row {
  const g = database.info.generation;
  return {
    suite: 'dataset',
    name: `generate ${database.info.size}: ${database.info.counts.chapters} chapters, ${database.info.counts.books} books`,
    engine: database.engine,
    size: database.info.size,
    value: Math.round(g.chaptersPerSecond),
    unit: 'chapters/s',
    note: `${g.seconds.toFixed(0)} s total, ${g.megabytesPerSecond.toFixed(1)} MB/s of text, ${g.textMegabytes.toFixed(0)} MB of text${database.generatedIn === 0 ? ' (kept from an earlier run)' : ''}`,
  };
}

/**
 * Two servers per dataset: one as deployed (the answer cache on, decision 0013) and one with
 * READ_CACHE=off. Search's own target (p99 on L) is the engine's cost, so the search rows, and
 * the growth curve, come from the server without the cache; on the main size the repeated
 * searches are also measured with it (named "(cached)"), and the chapter read and book list
 * without it ("(cache off)"), so that what a miss costs stays in the table.
 */
const UNCACHED_ENV = { READ_CACHE: 'off' };
const CACHED_SUFFIX = ' (cached)';
const UNCACHED_SUFFIX = ' (cache off)';
const COLD_READS = new Set([
  'GET /api/chapters/{id}',
  'GET /api/books?limit=10&offset=N',
  COMMENT_LIST_CASE,
]);
/** The rows of the engine's figures, which the growth curve plots. */
const isGrowthRow = (row: Row) =>
  !row.name.endsWith(CACHED_SUFFIX) && !row.name.endsWith(UNCACHED_SUFFIX);

/** What to measure on a dataset: everything (main size), reads and search (growth), or search. */
type ReadScope = 'main' | 'growth' | 'search-only';

/** Reads on one dataset; the idle and under-load memory of the deployed server too. */
async function readsOn(database: BenchDatabase, scope: ReadScope) {
  const label = { engine: database.engine, size: database.info.size };
  const cases = readCases(database.info, queries);
  const isSearch = (c: ReadCase) => c.suite === 'search';
  const cached = cases
    .filter((c) => scope !== 'search-only' && (!isSearch(c) || scope === 'main'))
    .map((c) => (isSearch(c) ? { ...c, name: `${c.name}${CACHED_SUFFIX}` } : c));
  const uncached = [
    ...cases.filter(isSearch).map((c) => ({ ...c, minRatio: undefined })),
    ...cases
      .filter((c) => scope === 'main' && COLD_READS.has(c.name))
      .map((c) => ({ ...c, name: `${c.name}${UNCACHED_SUFFIX}`, minRatio: undefined })),
  ];
  const measure = (chosen: ReadCase[], env: Record<string, string>, searchP99Target?: number) =>
    withServer(
      database.url,
      async (server) => {
        // Idle: started, every route touched once, then left alone for a moment.
        await getPaths(
          server.url,
          { connections: 1, duration: 1 },
          chosen.map((c) => c.paths[0]!),
        );
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        const idle = server.rss();
        const measured = await measureReads({
          server,
          cases: chosen,
          settings: options.settings,
          warmupSeconds: options.warmup,
          label,
          searchP99Target,
          log,
        });
        return { ...measured, idle };
      },
      env,
    );
  const reads = cached.length > 0 ? await measure(cached, {}) : undefined;
  const engine = await measure(uncached, UNCACHED_ENV, database.info.size === 'L' ? 50 : undefined);
  return {
    rows: [
      ...(reads?.rows ?? []),
      ...engine.rows.map((row) => ({ ...row, note: 'answer cache off (READ_CACHE=off)' })),
    ],
    peakRss: Math.max(reads?.peakRss ?? 0, engine.peakRss),
    idle: (reads ?? engine).idle,
  };
}

const growth: Array<{ engine: Engine; size: string; chapters: number; rows: Row[] }> = [];
const runName = values.out ?? (smoke ? 'smoke' : `bench-${env.when.replace(/[:.]/g, '-')}`);
/** Writes what is measured so far, so that a failure late in a long run loses nothing before it. */
const checkpoint = () =>
  writeResults(`${runName}.json`, { environment: env, partial: true, rows, growth, details });

for (const engine of options.engines) {
  log(`\n== ${engine}, dataset ${options.size}`);
  const database = await datasetDatabase({
    engine,
    size: options.size,
    fresh: values.fresh,
    keep: values.keep,
    log,
  });
  rows.push(datasetRow(database));
  const label = { engine, size: options.size };
  try {
    if (options.suites.has('reads')) {
      log('reads and search');
      const reads = await readsOn(database, 'main');
      rows.push(...reads.rows);
      rows.push({
        suite: 'memory',
        name: 'server RSS idle',
        ...label,
        value: mb(reads.idle),
        unit: 'MB',
      });
      rows.push({
        suite: 'memory',
        name: 'server RSS under read load (peak)',
        ...label,
        value: mb(reads.peakRss),
        unit: 'MB',
      });
      if (options.growth.includes(options.size))
        growth.push({
          engine,
          size: options.size,
          chapters: database.info.counts.chapters ?? 0,
          rows: reads.rows.filter(isGrowthRow),
        });
    }
    const work = await writableCopy(database);
    try {
      if (options.suites.has('writes')) {
        log('writes');
        rows.push(
          ...(await withServer(work.url, (server) =>
            measureWrites({
              server,
              info: work.info,
              corpus,
              settings: options.settings,
              warmupSeconds: options.warmup,
              label,
              log,
            }),
          )),
        );
      }
      if (options.suites.has('fanout')) {
        log(`fan-out to ${options.followers} followers, one process`);
        const one = await withServer(work.url, (server) =>
          measureFanout({
            servers: [server],
            info: work.info,
            followers: options.followers,
            rounds: 2,
            targetP99Ms: 1000,
            label: { ...label, name: 'fan-out, 1 process' },
            log,
          }),
        );
        rows.push(...one.rows);
        rows.push({
          suite: 'memory',
          name: `server RSS with ${options.followers} sockets`,
          ...label,
          value: mb(one.rssWithSockets[0]!),
          unit: 'MB',
        });
        details[`fanout-1-${engine}`] = one.rounds;
        log(`fan-out to ${options.followers} followers, two processes + Redis`);
        const redis = {
          REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
          REDIS_PREFIX: `inkwell-bench-${process.pid}-${crypto.randomBytes(3).toString('hex')}`,
        };
        const two = await withServer(
          work.url,
          (a) =>
            withServer(
              work.url,
              (b) =>
                measureFanout({
                  servers: [a, b],
                  info: work.info,
                  followers: options.followers,
                  rounds: 2,
                  targetP99Ms: 2000,
                  label: { ...label, name: 'fan-out, 2 processes + Redis' },
                  log,
                }),
              redis,
            ),
          redis,
        );
        rows.push(...two.rows);
        details[`fanout-2-${engine}`] = two.rounds;
      }
      if (options.suites.has('chat')) {
        log(`chat, room of ${options.chatMembers}`);
        const chat = await withServer(work.url, (server) =>
          measureChat({
            server,
            info: work.info,
            members: options.chatMembers,
            rates: options.chatRates,
            seconds: options.chatSeconds,
            label,
            log,
          }),
        );
        rows.push(...chat.rows);
        details[`chat-${engine}`] = chat.steps;
      }
    } finally {
      await work.drop();
    }
  } finally {
    await database.drop();
    checkpoint();
  }
}

// Growth: the same reads and search on each size; the main size was measured above.
if (options.suites.has('reads')) {
  for (const size of options.growth) {
    for (const engine of options.growthEngines) {
      if (
        growth.some((g) => g.engine === engine && g.size === size) ||
        options.skipGrowth.has(`${engine}:${size}`)
      )
        continue;
      const searchOnly = options.searchOnly.has(size);
      log(`\n== growth: ${engine}, dataset ${size}${searchOnly ? ' (search only)' : ''}`);
      const database = await datasetDatabase({
        engine,
        size,
        fresh: values.fresh,
        keep: values.keep,
        log,
      });
      try {
        rows.push(datasetRow(database));
        const reads = await readsOn(database, searchOnly ? 'search-only' : 'growth');
        rows.push(...reads.rows);
        growth.push({
          engine,
          size,
          chapters: database.info.counts.chapters ?? 0,
          rows: reads.rows.filter(isGrowthRow),
        });
      } finally {
        await database.drop();
        checkpoint();
      }
    }
  }
}

if (options.suites.has('web')) {
  log('\n== web');
  // A failed build must not lose the figures measured before it.
  const dist = await buildWeb(log).catch((error: unknown) => {
    log(`  the web app did not build: ${String(error).split('\n')[0]}`);
    rows.push({ suite: 'web', name: 'web app build', note: 'failed; see the log' });
    return undefined;
  });
  if (dist)
    try {
      rows.push(...bundleSizes(dist));
      if (options.lighthouse) {
        const database = await datasetDatabase({ engine: 'sqlite', size: 'XS', log });
        const book = database.info.publishedBooks[0]!;
        rows.push(
          await withServer(
            database.url,
            (server) =>
              lighthouse(
                `${server.url}/books/${book.id}/chapters/${book.firstChapter}`,
                'Lighthouse mobile performance, reader page',
                log,
              ),
            { WEB_DIST_DIR: dist },
          ),
        );
      }
    } finally {
      fs.rmSync(dist, { recursive: true, force: true });
    }
}

env.loadAfter = os.loadavg().map((n) => Math.round(n * 100) / 100);
const table = markdownTable(rows);
log(`\n${table}\n`);
const seconds = Math.round((performance.now() - started) / 1000);
const file = writeResults(`${runName}.json`, { environment: env, seconds, rows, growth, details });
log(`results: ${path.relative(process.cwd(), file)}`);

if (growth.length > 1) {
  const panels = growthPanels(growth);
  const svg = lineChartSvg(
    panels,
    `solid: SQLite, dashed: PostgreSQL; load average ${env.loadBefore[0]} before, ${env.loadAfter[0]} after; ${env.cpus} CPUs; ${options.settings.connections} connections, ${options.settings.duration} s per point`,
  );
  const svgFile = path.join(RESULTS_DIR, smoke ? 'smoke-growth.svg' : 'growth.svg');
  fs.writeFileSync(svgFile, svg);
  log(`chart: ${path.relative(process.cwd(), svgFile)}`);
}
const failed = rows.filter((r) => r.pass === false);
log(
  `${failed.length ? `${failed.length} measurement(s) missed their target` : 'every target met'}; load average before ${env.loadBefore.join(' ')}, after ${env.loadAfter.join(' ')}; ${seconds} s`,
);
// A missed target is a finding to report; an error answer is a bug, and fails the run (CI runs
// the smoke version to keep the suite working).
const erred = rows.filter((r) => (r.errors ?? 0) > 0);
if (erred.length > 0) {
  log(
    `error answers in: ${erred.map((r) => `${r.name} (${[r.engine, r.size].filter(Boolean).join(' ')}): ${r.errors}`).join('; ')}`,
  );
  process.exitCode = 1;
}

function growthPanels(points: typeof growth): Panel[] {
  const series = (suite: Row['suite'], value: (r: Row) => number | undefined) => {
    const byLabel = new Map<
      string,
      { label: string; dashed: boolean; points: Array<{ x: number; y: number }> }
    >();
    for (const g of points) {
      for (const r of g.rows.filter((row) => row.suite === suite)) {
        const y = value(r);
        if (y === undefined) continue;
        const label = `${r.name.replace(/^GET /, '').replace(/^search: /, '')} (${g.engine})`;
        const entry = byLabel.get(label) ?? { label, dashed: g.engine === 'postgres', points: [] };
        entry.points.push({ x: g.chapters, y });
        byLabel.set(label, entry);
      }
    }
    return [...byLabel.values()];
  };
  return [
    {
      title: 'Reads (answer cache on): share of the ceiling',
      yLabel: 'req/s ÷ ceiling req/s',
      xLabel: 'chapters in the dataset (log)',
      series: series('read', (r) => r.ratio),
      guide: { y: 0.5, label: 'target 0.5 (chapter, list)' },
    },
    {
      title: 'Reads (answer cache on): p99 latency',
      yLabel: 'p99 ms (log)',
      xLabel: 'chapters in the dataset (log)',
      series: series('read', (r) => r.p99),
      logY: true,
    },
    {
      title: 'Search (cache off): p99 at 10 clients',
      yLabel: 'p99 ms (log)',
      xLabel: 'chapters in the dataset (log)',
      series: series('search', (r) => r.p99),
      guide: { y: 50, label: 'target 50 ms on L' },
      logY: true,
    },
  ];
}
