import { afterAll, beforeAll } from 'vitest';
import { createDb, type Db } from '../../src/db/kysely.ts';
import { migrateTo } from '../../src/db/migrate.ts';
import { createTestApp, type TestApp } from './app.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { userRow } from './rows.ts';

/**
 * A library made before a migration, for upgrade tests: the database migrated up to `version`
 * only, and rows written straight into it as that version's tables take them. The caller
 * destroys the handle, then starts the app on the database, which migrates the rest.
 */
export async function oldLibrary(
  database: TestDatabase,
  version: Parameters<typeof migrateTo>[1],
): Promise<Db> {
  const old = createDb(database.url);
  await migrateTo(old, version);
  return old;
}

/**
 * An upgrade test's app, for the whole file: a database migrated up to `version` only, `seed`
 * writing that version's rows into it (`at`: now, as an ISO string), then the app started on it,
 * which migrates the rest. Answers the app once the file's tests run; the database is dropped
 * after them.
 */
export function upgradedApp(
  version: Parameters<typeof migrateTo>[1],
  seed: (old: Db, at: string) => Promise<void>,
): () => TestApp {
  let database: TestDatabase;
  let t: TestApp;
  beforeAll(async () => {
    database = await createTestDatabase();
    const old = await oldLibrary(database, version);
    try {
      await seed(old, new Date().toISOString());
    } finally {
      await old.destroy();
    }
    t = await createTestApp({}, { database });
  });
  // A seed that failed leaves no app: its own error is the one reported.
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });
  return () => t;
}

/** A user with a username only, by id. */
export async function insertOldUser(db: Db, username: string, at: string): Promise<number> {
  const { id } = await db
    .insertInto('users')
    .values(userRow(username, at))
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** A published book of `authorId`, by id. */
export async function insertOldBook(
  db: Db,
  authorId: number,
  title: string,
  at: string,
): Promise<number> {
  const { id } = await db
    .insertInto('books')
    .values({
      author_id: authorId,
      title,
      summary: '',
      is_published: 1,
      published_at: at,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}
