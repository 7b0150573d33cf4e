import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { Engine } from './bulk.ts';
import { generateDataset, type DatasetInfo } from './dataset.ts';

export const POSTGRES_ADMIN_URL =
  process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** Generated SQLite datasets are kept here (ignored by git) and reused by later runs. */
export const DATA_DIR = path.resolve(import.meta.dirname, '../data');

export interface BenchDatabase {
  url: string;
  engine: Engine;
  info: DatasetInfo;
  /** Seconds spent generating it in this run (0 when a kept SQLite dataset was reused). */
  generatedIn: number;
  drop(): Promise<void>;
}

/** Runs `work` on a connection to the PostgreSQL server's admin database (creating, dropping). */
export const admin = <T>(work: (client: pg.Client) => Promise<T>): Promise<T> =>
  connected(POSTGRES_ADMIN_URL, work);

/** One connection to `url` for `work`, closed after it whatever happens. */
async function connected<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const removeSqlite = (file: string) => {
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
};

/**
 * A database holding a generated dataset of the given size. PostgreSQL: a fresh database, dropped
 * afterwards, unless `keep` (then it is named after its size, its description is kept under
 * bench/data, and later runs with `keep` reuse it until `fresh`). SQLite: a file under bench/data,
 * kept and reused unless `fresh` (L takes long to make); suites that write work on a copy, so the
 * kept file stays as generated.
 */
export async function datasetDatabase(options: DatasetOptions): Promise<BenchDatabase> {
  const { engine, size, log } = options;
  if (engine === 'postgres') return postgresDataset(options);
  fs.mkdirSync(DATA_DIR, { recursive: true });
  const file = path.join(DATA_DIR, `dataset-${size}.db`);
  const infoFile = `${file}.json`;
  let generatedIn = 0;
  if (options.fresh || !fs.existsSync(infoFile) || !fs.existsSync(file)) {
    removeSqlite(file);
    fs.rmSync(infoFile, { force: true });
    const started = performance.now();
    const info = await generateDataset({ size, engine, databaseUrl: file, log });
    generatedIn = (performance.now() - started) / 1000;
    fs.writeFileSync(infoFile, JSON.stringify(info));
  } else {
    log(
      `reusing the ${size} SQLite dataset in ${path.relative(process.cwd(), file)} (--fresh makes a new one)`,
    );
  }
  const info = JSON.parse(fs.readFileSync(infoFile, 'utf8')) as DatasetInfo;
  return { url: file, engine, info, generatedIn, drop: async () => {} };
}

interface DatasetOptions {
  engine: Engine;
  size: string;
  fresh?: boolean;
  keep?: boolean;
  log: (line: string) => void;
}

async function postgresDataset(options: DatasetOptions): Promise<BenchDatabase> {
  const { size, log } = options;
  const name = options.keep
    ? `inkwell_bench_kept_${size.toLowerCase()}`
    : `inkwell_bench_${process.pid}_${crypto.randomBytes(3).toString('hex')}`;
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  const drop = () =>
    admin((c) => c.query(`drop database if exists ${name} with (force)`)).then(() => undefined);
  const infoFile = path.join(DATA_DIR, `postgres-${size}.json`);
  const kept =
    options.keep &&
    !options.fresh &&
    (await admin((c) => c.query('select 1 from pg_database where datname = $1', [name]))).rowCount;
  // A kept L takes hours to make: never drop it for want of its description (another checkout
  // made it, say); say what to do instead.
  if (kept && !fs.existsSync(infoFile))
    throw new Error(
      `the kept dataset ${name} exists but its description ${infoFile} does not: copy it from the checkout that made the dataset, or pass --fresh to make a new one`,
    );
  if (kept) {
    log(`reusing the kept ${size} PostgreSQL dataset ${name} (--fresh makes a new one)`);
    // Earlier runs wrote to it (autosaves, history records bumping books' counters), and this
    // machine's PostgreSQL runs no autovacuum: without this, index-only scans of the books fetch
    // every row again and book lists slow down. Vacuumed as autovacuum would have left it; quick
    // when little changed.
    await connected(url.toString(), (client) => client.query('vacuum analyze'));
    const info = JSON.parse(fs.readFileSync(infoFile, 'utf8')) as DatasetInfo;
    return { url: url.toString(), engine: 'postgres', info, generatedIn: 0, drop: async () => {} };
  }
  await drop();
  await admin((c) => c.query(`create database ${name}`));
  try {
    const started = performance.now();
    const info = await generateDataset({
      size,
      engine: 'postgres',
      databaseUrl: url.toString(),
      log,
    });
    if (options.keep) {
      fs.mkdirSync(DATA_DIR, { recursive: true });
      fs.writeFileSync(infoFile, JSON.stringify(info));
    }
    return {
      url: url.toString(),
      engine: 'postgres',
      info,
      generatedIn: (performance.now() - started) / 1000,
      drop: options.keep ? async () => {} : drop,
    };
  } catch (error) {
    await drop();
    throw error;
  }
}

/**
 * A throw-away copy of a SQLite dataset for suites that write. PostgreSQL databases are per run,
 * or kept on purpose (`--keep`), and then the writes change them a little.
 */
export async function writableCopy(database: BenchDatabase): Promise<BenchDatabase> {
  if (database.engine === 'postgres') return database;
  const copy = path.join(
    DATA_DIR,
    `work-${process.pid}-${crypto.randomBytes(3).toString('hex')}.db`,
  );
  fs.copyFileSync(database.url, copy);
  if (fs.existsSync(`${database.url}-wal`)) fs.copyFileSync(`${database.url}-wal`, `${copy}-wal`);
  return { ...database, url: copy, drop: async () => removeSqlite(copy) };
}
