import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareRepeatedStatements } from '../../src/db/postgres-prepared-statements.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

// The server's connections send a statement text they have run before as a named prepared
// statement (decision 0019). Checked on the server's own list of the session's statements.
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase('postgres');
});
afterAll(() => database.drop());

/** A connection of its own with the given budget, and what it has prepared so far. */
async function connection(budget?: number) {
  const pool = new pg.Pool({ connectionString: database.url, max: 1 });
  pool.on('connect', (client) => prepareRepeatedStatements(client, budget));
  const client = await pool.connect();
  // pool.end() resolves before the connection has closed; the database dropped right after (with
  // force) may then terminate it, and that error must not pass for one of the tests.
  client.on('error', () => {});
  return {
    client,
    prepared: async () =>
      (
        await client.query<{ statement: string }>(
          'select statement from pg_prepared_statements order by prepare_time',
        )
      ).rows.map((row) => row.statement),
    close: async () => {
      client.release();
      await pool.end();
    },
  };
}

const ADD = 'select $1::int + 1 as n';
const answer = async (result: Promise<pg.QueryResult>) => (await result).rows[0].n as number;

describe('prepared statements', () => {
  it('names a statement with parameters from its second run on, with the same answers', async () => {
    const { client, prepared, close } = await connection();
    expect(await answer(client.query(ADD, [1]))).toBe(2);
    expect(await prepared()).toEqual([]);
    expect(await answer(client.query(ADD, [2]))).toBe(3);
    expect(await answer(client.query(ADD, [41]))).toBe(42);
    expect(await prepared()).toEqual([ADD]);
    await close();
  });

  it('leaves statements without parameters unnamed', async () => {
    const { client, prepared, close } = await connection();
    for (let i = 0; i < 3; i++) expect(await answer(client.query('select 7 as n'))).toBe(7);
    expect(await prepared()).toEqual([]);
    await close();
  });

  it('stops naming new texts at its budget and runs the rest unnamed', async () => {
    const { client, prepared, close } = await connection(2);
    const texts = [1, 2, 3].map((k) => `select $1::int + ${k} as n`);
    for (let run = 0; run < 2; run++)
      for (const [i, text] of texts.entries())
        expect(await answer(client.query(text, [10]))).toBe(11 + i);
    expect(await prepared()).toEqual(texts.slice(0, 2));
    await close();
  });
});
