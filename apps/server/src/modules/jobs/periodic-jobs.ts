import crypto from 'node:crypto';
import os from 'node:os';
import type { Db } from '../../db/kysely.ts';
import { claimJobLease, endJobLease, findJobLease } from './job-leases.repository.ts';

/**
 * Periodic jobs that run once per interval across every process (docs/decisions/0027). Each
 * process keeps a timer per job; when it fires, the process claims the job's lease row with one
 * conditional write (job-leases.repository.ts), which only the first of the processes due at
 * that moment wins. The winner runs the job and ends its lease; the others read when the last
 * run began and sleep until the next is due. A process that dies in a run holds the lease until
 * it lapses (`leaseMs`); the next run is due an interval after that run began, as usual.
 *
 * Times come from each process's clock: clocks set apart by s seconds can bring two runs s
 * seconds closer than the interval, never two at once (the lease).
 */
export interface PeriodicJob {
  /** Unique: the key of its lease row. */
  name: string;
  /** A run begins at most once per this long, across all processes. */
  intervalMs: number;
  /** The longest a run may take before another process may begin one; 10 min by default. */
  leaseMs?: number;
  run(): Promise<void>;
}

/** What the jobs tell: a failure (warn), and each run (debug). */
export interface JobLog {
  warn(details: object, message: string): void;
  debug(details: object, message: string): void;
}

export interface RunningJobs {
  /** Stops the timers and waits for a run in progress. */
  stop(): Promise<void>;
}

const DEFAULT_LEASE_MS = 10 * 60 * 1000;
/** The shortest sleep between two looks at a job (a timer that fired a little early). */
const MIN_WAIT_MS = 20;
/** After a failed look (the database away), the longest wait before the next. */
const RETRY_MS = 30_000;

const iso = (ms: number) => new Date(ms).toISOString();

/** This process, as named in lease rows: which host and process ran a job last. */
const processName = () =>
  `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`;

export function startPeriodicJobs(
  db: Db,
  jobs: readonly PeriodicJob[],
  { log, holder = processName() }: { log: JobLog; holder?: string },
): RunningJobs {
  const stops = jobs.map((job) => keepRunning(db, job, holder, log));
  return { stop: async () => void (await Promise.all(stops.map((stop) => stop()))) };
}

function keepRunning(db: Db, job: PeriodicJob, holder: string, log: JobLog) {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const tick = async (): Promise<void> => {
    let waitMs: number;
    try {
      waitMs = await takeTurn(db, job, holder, log);
    } catch (error) {
      log.warn({ err: error, job: job.name }, 'periodic job could not take its turn');
      waitMs = Math.min(job.intervalMs, RETRY_MS);
    }
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick();
    }, waitMs);
    // A job's timer does not keep the process alive.
    timer.unref();
  };
  running = tick();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}

/** Runs the job if it is this process's turn; answers how long to sleep before the next look. */
async function takeTurn(db: Db, job: PeriodicJob, holder: string, log: JobLog): Promise<number> {
  const now = Date.now();
  const startedAt = iso(now);
  const claimed = await claimJobLease(db, {
    name: job.name,
    holder,
    now: startedAt,
    dueBefore: iso(now - job.intervalMs),
    leaseUntil: iso(now + (job.leaseMs ?? DEFAULT_LEASE_MS)),
  });
  if (claimed) {
    try {
      await job.run();
      log.debug({ job: job.name, startedAt, ms: Date.now() - now }, 'periodic job ran');
    } catch (error) {
      // Not run again before its next turn: a job failing every time must not run in a loop.
      log.warn({ err: error, job: job.name }, 'periodic job failed');
    }
    await endJobLease(db, { name: job.name, holder, startedAt, now: iso(Date.now()) });
    return clampWait(now + job.intervalMs - Date.now(), job);
  }
  const lease = await findJobLease(db, job.name);
  if (!lease) return MIN_WAIT_MS;
  const due = Math.max(
    Date.parse(lease.started_at) + job.intervalMs,
    Date.parse(lease.lease_until),
  );
  return clampWait(due - Date.now(), job);
}

/** The longest delay a timer takes: beyond it Node fires at once (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * At least MIN_WAIT_MS; at most one interval, so a changed interval takes effect soon, and never
 * beyond what a timer can wait (a longer wait is simply looked at again then).
 */
const clampWait = (ms: number, job: PeriodicJob) =>
  Math.min(job.intervalMs, MAX_TIMER_MS, Math.max(MIN_WAIT_MS, ms));
