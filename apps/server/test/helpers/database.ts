import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/** The server PostgreSQL tests run against; each test file gets its own database on it. */
export const POSTGRES_ADMIN_URL =
  process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export type TestEngine = 'sqlite' | 'postgres';

export function testEngine(): TestEngine {
  return process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
}

export interface TestDatabase {
  url: string;
  engine: TestEngine;
  drop(): Promise<void>;
}

/**
 * A fresh, empty database: a SQLite file in a temporary folder, or a new PostgreSQL database.
 * A PostgreSQL server that cannot be reached fails the test run; it never skips it.
 */
export async function createTestDatabase(engine: TestEngine = testEngine()): Promise<TestDatabase> {
  const name = `inkwell_test_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  if (engine === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-test-'));
    return {
      url: path.join(dir, `${name}.db`),
      engine,
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  await withAdmin((client) => client.query(`create database ${name}`));
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    engine,
    drop: () =>
      withAdmin((client) => client.query(`drop database if exists ${name} with (force)`)).then(
        () => {},
      ),
  };
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
