/**
 * Profiles the server under one call: `npm run bench:profile -- --case chapters/{id} --size S`
 * (any read case's name, `autosave` or `autosave-published`; `--engine postgres --keep` to use a
 * kept dataset).
 * Runs the server with --cpu-prof, loads it for a few seconds, and prints where the CPU went
 * (by package and by function). The .cpuprofile is kept under bench/results/ for a closer look
 * (Chrome DevTools, Performance tab, "Load profile").
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Engine } from './lib/bulk.ts';
import { loadCorpus } from './lib/corpus.ts';
import { printProfile, summarizeProfile } from './lib/cpuprofile.ts';
import { datasetDatabase, writableCopy } from './lib/databases.ts';
import { getPaths, runLoad } from './lib/load.ts';
import { searchQueries } from './lib/queries.ts';
import { seededRandom } from './lib/random.ts';
import { RESULTS_DIR } from './lib/report.ts';
import { startServer } from './lib/server.ts';
import { readCases } from './suites/reads.ts';
import { autosaveTargets } from './suites/writes.ts';

const { values } = parseArgs({
  options: {
    case: { type: 'string', default: 'chapters/{id}' },
    size: { type: 'string', default: 'S' },
    engine: { type: 'string', default: 'sqlite' },
    duration: { type: 'string', default: '5' },
    // One connection profiles a request alone, without other requests queued behind it.
    connections: { type: 'string', default: '10' },
    // Reuse (or make and keep) the size's kept PostgreSQL dataset, as `npm run bench -- --keep`:
    // a fresh L takes over an hour to make.
    keep: { type: 'boolean', default: false },
  },
});
const log = (line: string) => console.log(line);
const database = await datasetDatabase({
  engine: values.engine as Engine,
  size: values.size!,
  keep: values.keep,
  log,
});
const corpus = await loadCorpus(seededRandom(1));
const cases = readCases(database.info, searchQueries(corpus));
// The autosave of a draft, or of a published chapter (whose text the search indexer follows).
const autosave = values.case === 'autosave' || values.case === 'autosave-published';
const publishedChapters = values.case === 'autosave-published';
const chosen = autosave
  ? { name: `autosave PUT 16 KB ${publishedChapters ? 'published' : 'draft'}`, paths: [] }
  : cases.find((c) => c.name.includes(values.case!));
if (!chosen)
  throw new Error(
    `no read case matches "${values.case}"; cases: autosave, autosave-published, ${cases.map((c) => c.name).join(', ')}`,
  );
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-profile-'));
const work = autosave ? await writableCopy(database) : database;
const server = await startServer({
  databaseUrl: work.url,
  // Search is measured without the answer cache, as `npm run bench` measures it: else a repeated
  // query's profile is the cache's.
  env: 'suite' in chosen && chosen.suite === 'search' ? { READ_CACHE: 'off' } : {},
  nodeOptions: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
});
const settings = { connections: Number(values.connections), duration: Number(values.duration) };
try {
  let result;
  if (autosave) {
    const { drafts, published, save } = await autosaveTargets(
      server,
      work.info,
      corpus,
      settings.connections,
    );
    const targets = publishedChapters ? published : drafts;
    let slots = 0;
    result = await runLoad(server.url, settings, (i, context) =>
      save(targets, i, (context.slot ??= slots++) as number),
    );
  } else {
    result = await getPaths(server.url, settings, chosen.paths);
  }
  log(
    `${chosen.name}: ${result.rps} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, errors ${result.errors}`,
  );
} finally {
  await server.stop();
  if (work !== database) await work.drop();
  await database.drop();
}
// One profile per thread: Node names them CPU.<date>.<pid>.<thread id>.<n>.cpuprofile, the event
// loop's thread id 0, read workers' (decision 0041) and the checkpointer's after it.
const threadOf = (file: string) => Number(file.split('.').at(-3));
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.cpuprofile'))
  .sort((a, b) => threadOf(a) - threadOf(b));
if (files.length === 0) throw new Error('the server wrote no profile');
fs.mkdirSync(RESULTS_DIR, { recursive: true });
const caseName = chosen.name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '');
for (const file of files) {
  const thread = threadOf(file);
  const kept = path.join(
    RESULTS_DIR,
    `profile-${caseName}${thread === 0 ? '' : `-thread-${thread}`}.cpuprofile`,
  );
  fs.copyFileSync(path.join(dir, file), kept);
  log(thread === 0 ? '\nthe event loop' : `\nworker thread ${thread}`);
  printProfile(
    summarizeProfile(kept, 25, { windowMs: Number(values.duration) * 1000 - 500, tailMs: 300 }),
    log,
  );
  log(`profile kept in ${path.relative(process.cwd(), kept)}`);
}
fs.rmSync(dir, { recursive: true, force: true });
