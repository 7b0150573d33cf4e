/**
 * Generates one dataset and reports its speed: `npm run bench:generate -- --size S --engine sqlite`.
 * SQLite datasets are kept under bench/data for later runs; a PostgreSQL one is dropped at the end
 * unless --keep is given (then `npm run bench -- --keep` reuses it).
 */
import { parseArgs } from 'node:util';
import type { Engine } from './lib/bulk.ts';
import { datasetDatabase } from './lib/databases.ts';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: 'S' },
    engine: { type: 'string', default: 'sqlite' },
    keep: { type: 'boolean', default: false },
  },
});
const engine = values.engine as Engine;
const database = await datasetDatabase({
  engine,
  size: values.size!,
  fresh: true,
  keep: values.keep,
  log: (l) => console.log(l),
});
console.log(
  JSON.stringify({
    url: database.url,
    generatedIn: database.generatedIn,
    ...database.info.generation,
    counts: database.info.counts,
  }),
);
await database.drop();
