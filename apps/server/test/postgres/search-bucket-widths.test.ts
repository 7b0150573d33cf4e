import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  CHAPTER_BUCKET_BITS,
  WIDE_BUCKET_BITS,
} from '../../src/modules/search/postgres-bucket-window.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

// The search code's bucket widths must be those the database's key functions were created with
// (migrations 0007 and 0008); the code keeps its own copy rather than importing migrations.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

it('agrees with the key functions in the database on the widths of id buckets', async () => {
  const definition = async (fn: string) =>
    (
      await sql<{ body: string }>`select pg_get_functiondef(${fn}::regprocedure) as body`.execute(
        t.ctx.db,
      )
    ).rows[0]!.body;
  expect(await definition('inkwell_search_keys(tsvector, integer)')).toContain(
    `chapter_id >> ${CHAPTER_BUCKET_BITS})`,
  );
  expect(await definition('inkwell_wide_search_keys(tsvector, integer)')).toContain(
    `chapter_id >> ${WIDE_BUCKET_BITS})`,
  );
});
