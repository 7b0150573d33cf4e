import { datasetDatabase } from './lib/databases.ts';
import { loadCorpus } from './lib/corpus.ts';
import { searchQueries } from './lib/queries.ts';
import { seededRandom } from './lib/random.ts';
import { startServer } from './lib/server.ts';
import { measureReads, readCases } from './suites/reads.ts';
const size = process.argv[2] ?? 'XS';
const db = await datasetDatabase({ engine: 'sqlite', size, log: console.log });
const corpus = await loadCorpus(seededRandom(1));
const q = searchQueries(corpus);
console.log(q);
const server = await startServer({ databaseUrl: db.url });
try {
  const r = await measureReads({ server, cases: readCases(db.info, q), settings: { connections: 10, duration: Number(process.argv[3] ?? 3) }, warmupSeconds: 1, label: { engine: 'sqlite', size }, log: console.log });
  console.log('peak rss MB', r.peakRss / 1e6);
} finally { await server.stop(); }
