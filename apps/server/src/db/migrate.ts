import type { Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import { isPostgres, type Db } from './kysely.ts';
import * as initial from './migrations/0001_initial.ts';
import * as realtime from './migrations/0002_realtime.ts';
import * as library from './migrations/0003_library.ts';
import * as performanceMigration from './migrations/0004_performance.ts';
import * as searchLookup from './migrations/0005_search_lookup.ts';
import * as phraseGrams from './migrations/0006_phrase_grams.ts';
import * as searchKeys from './migrations/0007_search_keys.ts';
import * as wideSearchKeys from './migrations/0008_wide_search_keys.ts';
import * as searchQueue from './migrations/0009_search_queue.ts';
import * as followNoticesAndSocketTickets from './migrations/0010_follow_notices_and_socket_tickets.ts';
import * as searchBookQueue from './migrations/0011_search_book_queue.ts';
import * as uploads from './migrations/0012_uploads.ts';
import * as jobLeases from './migrations/0013_job_leases.ts';
import * as community from './migrations/0014_community.ts';
import * as discovery from './migrations/0015_discovery.ts';
import * as releases from './migrations/0016_releases.ts';
import * as revisions from './migrations/0017_revisions.ts';
import * as stats from './migrations/0018_stats.ts';
import * as lz4Text from './migrations/0019_lz4_text.ts';
import * as textFromContent from './migrations/0020_text_from_content.ts';
import * as savedTextKept from './migrations/0021_saved_text_kept.ts';
import * as commentNoticesIndex from './migrations/0022_comment_notices_index.ts';
import * as searchGramsOnce from './migrations/0023_search_grams_once.ts';
import * as plainBiographies from './migrations/0024_plain_biographies.ts';
import * as searchPublicOnly from './migrations/0025_search_public_only.ts';

type EngineMigration = {
  up: (db: Kysely<unknown>, engine: 'sqlite' | 'postgres') => Promise<void>;
};

/** Listed in code, not read from a folder, so bundling or running from source both work. */
const MIGRATIONS: Record<string, EngineMigration> = {
  '0001_initial': initial,
  '0002_realtime': realtime,
  '0003_library': library,
  '0004_performance': performanceMigration,
  '0005_search_lookup': searchLookup,
  '0006_phrase_grams': phraseGrams,
  '0007_search_keys': searchKeys,
  '0008_wide_search_keys': wideSearchKeys,
  '0009_search_queue': searchQueue,
  '0010_follow_notices_and_socket_tickets': followNoticesAndSocketTickets,
  '0011_search_book_queue': searchBookQueue,
  '0012_uploads': uploads,
  '0013_job_leases': jobLeases,
  '0014_community': community,
  '0015_discovery': discovery,
  '0016_releases': releases,
  '0017_revisions': revisions,
  '0018_stats': stats,
  '0019_lz4_text': lz4Text,
  '0020_text_from_content': textFromContent,
  '0021_saved_text_kept': savedTextKept,
  '0022_comment_notices_index': commentNoticesIndex,
  '0023_search_grams_once': searchGramsOnce,
  '0024_plain_biographies': plainBiographies,
  '0025_search_public_only': searchPublicOnly,
};

class EngineAwareProvider implements MigrationProvider {
  private readonly engine: 'sqlite' | 'postgres';

  constructor(engine: 'sqlite' | 'postgres') {
    this.engine = engine;
  }
  async getMigrations(): Promise<Record<string, Migration>> {
    return Object.fromEntries(
      Object.entries(MIGRATIONS).map(([name, m]) => [
        name,
        { up: (db: Kysely<unknown>) => m.up(db, this.engine) },
      ]),
    );
  }
}

/** Brings the schema up to date; safe to call on every start and from several processes. */
export async function migrateToLatest(db: Db): Promise<void> {
  await migrate(db, (migrator) => migrator.migrateToLatest());
}

/** Brings the schema to the given migration (tests of an upgrade start from an older schema). */
export async function migrateTo(db: Db, name: keyof typeof MIGRATIONS): Promise<void> {
  await migrate(db, (migrator) => migrator.migrateTo(name));
}

async function migrate(
  db: Db,
  run: (migrator: Migrator) => ReturnType<Migrator['migrateToLatest']>,
): Promise<void> {
  const engine = isPostgres(db) ? 'postgres' : 'sqlite';
  const migrator = new Migrator({
    db: db as Kysely<unknown>,
    provider: new EngineAwareProvider(engine),
  });
  const { error, results } = await run(migrator);
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, {
      cause: error,
    });
  }
}
