import { sql, type CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, writeStatement, writeTransaction, type Db } from '../../src/db/kysely.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

// A save of one statement (a chapter's autosave) runs without BEGIN and COMMIT on PostgreSQL:
// they are two round trips more on a pooled connection for what one statement does atomically.
let database: TestDatabase;
let db: Db;
const statements: CompiledQuery[] = [];
beforeAll(async () => {
  database = await createTestDatabase('postgres');
  db = createDb(database.url, { size: 2, waitMs: 1_000, statementTimeoutMs: 0 }, (event) => {
    if (event.level === 'query') statements.push(event.query);
  });
  await sql`create table t (x integer)`.execute(db);
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

const texts = () => statements.splice(0).map((s) => s.sql.trim().toLowerCase());

describe('writeStatement on PostgreSQL', () => {
  it('runs its one statement on the pool, outside a transaction', async () => {
    texts();
    const handedOver = await writeStatement(db, async (handle) => {
      await sql`insert into t (x) values (1)`.execute(handle);
      return handle.isTransaction;
    });
    expect(handedOver).toBe(false);
    expect(texts()).toEqual(['insert into t (x) values (1)']);
  });

  it('while writeTransaction wraps its work in BEGIN and COMMIT', async () => {
    texts();
    await writeTransaction(db, (trx) => sql`insert into t (x) values (2)`.execute(trx));
    expect(texts()).toEqual(['begin', 'insert into t (x) values (2)', 'commit']);
  });
});
