import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/kysely.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { claimJobLease, findJobLease } from '../../src/modules/jobs/job-leases.repository.ts';
import { startPeriodicJobs, type PeriodicJob } from '../../src/modules/jobs/periodic-jobs.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

/**
 * Periodic jobs run once per interval however many processes run them (issue 22 §3): here
 * several runners on one database, each as a process would be (its own database handle, its
 * own name in the lease). test/reliability/postgres/limits-and-jobs-across-processes.test.ts
 * does it with real processes.
 */
let database: TestDatabase;
const handles: Db[] = [];
beforeAll(async () => {
  database = await createTestDatabase();
  const first = createDb(database.url);
  await migrateToLatest(first);
  handles.push(first, createDb(database.url));
});
afterAll(async () => {
  await Promise.all(handles.map((db) => db.destroy()));
  await database.drop();
});

const quiet = { warn: () => {}, debug: () => {} };
const uniqueName = (what: string) => `${what}-${crypto.randomBytes(4).toString('hex')}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A job that records who ran it, and when the run began as its lease says (the claim's time). */
function recordedJob(name: string, intervalMs: number) {
  const runs: Array<{ by: string; at: number }> = [];
  const jobFor = (by: string, db: Db): PeriodicJob => ({
    name,
    intervalMs,
    run: async () => {
      const lease = await findJobLease(db, name);
      runs.push({ by, at: Date.parse(lease!.started_at) });
    },
  });
  return { runs, jobFor };
}

describe('periodic jobs', () => {
  it('run once per interval across runners, not once per runner', async () => {
    const name = uniqueName('tick');
    const { runs, jobFor } = recordedJob(name, 200);
    const runners = ['A', 'B', 'C'].map((by, i) =>
      startPeriodicJobs(handles[i % 2]!, [jobFor(by, handles[i % 2]!)], { log: quiet, holder: by }),
    );
    await sleep(1_100);
    await Promise.all(runners.map((runner) => runner.stop()));
    // Due at 0, 200, ..., 1000: six runs (five or seven under a slow machine's timers), where
    // three runners each on their own would have made eighteen.
    expect(runs.length).toBeGreaterThanOrEqual(4);
    expect(runs.length).toBeLessThanOrEqual(7);
    const gaps = runs.slice(1).map((run, i) => run.at - runs[i]!.at);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(200);
    expect((await findJobLease(handles[0]!, name))?.runs).toBe(runs.length);
  });

  it('wait for the lease of a holder that died in a run to lapse, then run', async () => {
    const name = uniqueName('orphan');
    const leaseLapses = Date.now() + 400;
    // A process took the job long ago and died in the run: its lease still stands.
    expect(
      await claimJobLease(handles[0]!, {
        name,
        holder: 'dead',
        now: new Date(Date.now() - 60_000).toISOString(),
        dueBefore: new Date(0).toISOString(),
        leaseUntil: new Date(leaseLapses).toISOString(),
      }),
    ).toBe(true);
    const { runs, jobFor } = recordedJob(name, 100);
    const runner = startPeriodicJobs(handles[1]!, [jobFor('heir', handles[1]!)], {
      log: quiet,
      holder: 'heir',
    });
    try {
      await expect.poll(() => runs.length, { timeout: 3_000, interval: 20 }).toBeGreaterThan(0);
      expect(runs[0]!.at).toBeGreaterThanOrEqual(leaseLapses);
      expect(runs[0]!.at).toBeLessThan(leaseLapses + 300);
    } finally {
      await runner.stop();
    }
  });

  it('do not take a job whose run is still going, even when the next one is due', async () => {
    const name = uniqueName('slow');
    let running = 0;
    let overlapped = false;
    const job = (): PeriodicJob => ({
      name,
      intervalMs: 50,
      leaseMs: 5_000,
      run: async () => {
        overlapped ||= running > 0;
        running++;
        await sleep(300);
        running--;
      },
    });
    const runners = ['A', 'B'].map((by, i) =>
      startPeriodicJobs(handles[i]!, [job()], { log: quiet, holder: by }),
    );
    await sleep(1_000);
    await Promise.all(runners.map((runner) => runner.stop()));
    expect(overlapped).toBe(false);
    expect((await findJobLease(handles[0]!, name))?.runs).toBeGreaterThanOrEqual(2);
  });

  it('do not run a failing job again before its next turn, and keep running it', async () => {
    const name = uniqueName('failing');
    let calls = 0;
    const warnings: string[] = [];
    const runner = startPeriodicJobs(
      handles[0]!,
      [
        {
          name,
          intervalMs: 100,
          run: async () => {
            calls++;
            throw new Error('no luck');
          },
        },
      ],
      { log: { ...quiet, warn: (_details, message) => void warnings.push(message) } },
    );
    await sleep(450);
    await runner.stop();
    expect(calls).toBeGreaterThanOrEqual(3);
    expect(calls).toBeLessThanOrEqual(6);
    expect(warnings).toHaveLength(calls);
    expect(warnings[0]).toBe('periodic job failed');
  });

  it('wait out an interval longer than a timer can hold without firing early', async () => {
    const overflows: string[] = [];
    const listen = (warning: Error) => {
      if (warning.name === 'TimeoutOverflowWarning') overflows.push(warning.message);
    };
    process.on('warning', listen);
    let runs = 0;
    // Forty days: past the 24.8 days a Node timer can wait, beyond which it fires at once.
    const job: PeriodicJob = {
      name: uniqueName('monthly'),
      intervalMs: 40 * 86_400_000,
      run: async () => void runs++,
    };
    const runner = startPeriodicJobs(handles[0]!, [job], { log: quiet, holder: 'patient' });
    try {
      await sleep(500);
      expect(runs).toBe(1);
      expect(overflows).toEqual([]);
    } finally {
      await runner.stop();
      process.off('warning', listen);
    }
  });

  it('stop waits for a run in progress, and none begins after', async () => {
    const name = uniqueName('stopping');
    let release: () => void = () => {};
    let runs = 0;
    let finished = false;
    const runner = startPeriodicJobs(
      handles[0]!,
      [
        {
          name,
          intervalMs: 20,
          run: async () => {
            runs++;
            await new Promise<void>((resolve) => (release = resolve));
            finished = true;
          },
        },
      ],
      { log: quiet },
    );
    await expect.poll(() => runs).toBe(1);
    const stopped = runner.stop();
    await sleep(50);
    expect(finished).toBe(false);
    release();
    await stopped;
    expect(finished).toBe(true);
    await sleep(100);
    expect(runs).toBe(1);
  });
});
