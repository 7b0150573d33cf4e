import type { Kysely } from 'kysely';

/**
 * Periodic jobs that must run once per interval across every process (issue 22; the session
 * purge first, then scheduled releases, revision compaction, view-count flushes): a row per job,
 * which a process claims with one conditional write when the job is due and no live lease stands
 * (modules/jobs/, docs/decisions/0027). Times are ISO-8601 UTC text, compared as text, like every
 * other timestamp here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('job_leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    // The process holding (or that last held) the lease.
    .addColumn('holder', 'text', (c) => c.notNull())
    // When the last run began: the next is due an interval later.
    .addColumn('started_at', 'text', (c) => c.notNull())
    // Until when the holder may run undisturbed; a holder that dies lets it lapse.
    .addColumn('lease_until', 'text', (c) => c.notNull())
    // Runs so far, across all processes (to watch, and for tests).
    .addColumn('runs', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
