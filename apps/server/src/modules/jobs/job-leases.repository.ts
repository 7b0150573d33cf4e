import type { DbHandle } from '../../db/kysely.ts';

/**
 * Job leases (migration 0013): which process runs a periodic job now, and when its last run
 * began. Every write is one statement whose conditions decide, so two processes racing for a
 * job cannot both win, on SQLite or PostgreSQL.
 */

/**
 * Claims the job for `holder` if its last run began at or before `dueBefore` and no lease
 * stands at `now` (a job never run is due): one INSERT ... ON CONFLICT DO UPDATE ... WHERE,
 * which inserts the row the first time, else updates it only when the conditions hold. Answers
 * whether this holder won.
 */
export async function claimJobLease(
  db: DbHandle,
  claim: { name: string; holder: string; now: string; dueBefore: string; leaseUntil: string },
): Promise<boolean> {
  const row = await db
    .insertInto('job_leases')
    .values({
      name: claim.name,
      holder: claim.holder,
      started_at: claim.now,
      lease_until: claim.leaseUntil,
      runs: 1,
    })
    .onConflict((conflict) =>
      conflict
        .column('name')
        .doUpdateSet((eb) => ({
          holder: eb.ref('excluded.holder'),
          started_at: eb.ref('excluded.started_at'),
          lease_until: eb.ref('excluded.lease_until'),
          runs: eb(eb.ref('job_leases.runs'), '+', 1),
        }))
        .where('job_leases.started_at', '<=', claim.dueBefore)
        .where('job_leases.lease_until', '<=', claim.now),
    )
    .returning('name')
    .executeTakeFirst();
  return row !== undefined;
}

/** Ends the lease of the run `holder` began at `startedAt`, if no one has taken the job since. */
export async function endJobLease(
  db: DbHandle,
  lease: { name: string; holder: string; startedAt: string; now: string },
): Promise<void> {
  await db
    .updateTable('job_leases')
    .set({ lease_until: lease.now })
    .where('name', '=', lease.name)
    .where('holder', '=', lease.holder)
    .where('started_at', '=', lease.startedAt)
    .execute();
}

/** When the job's last run began and until when its lease stands. */
export async function findJobLease(db: DbHandle, name: string) {
  return db
    .selectFrom('job_leases')
    .select(['started_at', 'lease_until', 'runs'])
    .where('name', '=', name)
    .executeTakeFirst();
}
