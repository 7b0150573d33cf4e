import type { Selectable } from 'kysely';
import type { DbHandle } from '../../db/kysely.ts';
import type { Flag, ImportJobsTable } from '../../db/schema.ts';

export type ImportJobRow = Selectable<ImportJobsTable>;

const ACTIVE = ['queued', 'running'] as const;

export async function insertJob(
  db: DbHandle,
  job: {
    userId: number;
    filename: string;
    format: ImportJobsTable['format'];
    keepFrontMatter: Flag;
    runner: string;
    now: string;
  },
) {
  return db
    .insertInto('import_jobs')
    .values({
      user_id: job.userId,
      status: 'queued',
      progress: 0,
      message: 'Waiting to start',
      filename: job.filename,
      format: job.format,
      keep_front_matter: job.keepFrontMatter,
      warnings: '[]',
      runner: job.runner,
      heartbeat_at: job.now,
      created_at: job.now,
      updated_at: job.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findJob(db: DbHandle, id: number) {
  return db.selectFrom('import_jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listJobs(db: DbHandle, userId: number, limit: number) {
  return db
    .selectFrom('import_jobs')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function countActiveJobs(db: DbHandle, userId: number) {
  const row = await db
    .selectFrom('import_jobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('status', 'in', ACTIVE)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Progress of a job that is still active; a job already finished or failed is left alone. */
export async function updateProgress(
  db: DbHandle,
  id: number,
  change: { status?: 'running'; progress?: number; message: string; now: string },
) {
  await db
    .updateTable('import_jobs')
    .set({
      ...(change.status && { status: change.status }),
      ...(change.progress !== undefined && { progress: change.progress }),
      message: change.message,
      heartbeat_at: change.now,
      updated_at: change.now,
    })
    .where('id', '=', id)
    .where('status', 'in', ACTIVE)
    .execute();
}

export async function setJobBook(db: DbHandle, id: number, bookId: number) {
  await db.updateTable('import_jobs').set({ book_id: bookId }).where('id', '=', id).execute();
}

/** Ends an active job; answers false when it had already ended (e.g. failed by a sweep meanwhile). */
export async function finishJob(
  db: DbHandle,
  id: number,
  end: {
    status: 'done' | 'failed';
    message: string;
    progress?: number;
    chapterCount?: number | null;
    sourceTitle?: string | null;
    sourceAuthor?: string | null;
    warnings: string[];
    now: string;
  },
): Promise<boolean> {
  const result = await db
    .updateTable('import_jobs')
    .set({
      status: end.status,
      message: end.message,
      ...(end.progress !== undefined && { progress: end.progress }),
      chapter_count: end.chapterCount ?? null,
      source_title: end.sourceTitle ?? null,
      source_author: end.sourceAuthor ?? null,
      warnings: JSON.stringify(end.warnings),
      updated_at: end.now,
      finished_at: end.now,
    })
    .where('id', '=', id)
    .where('status', 'in', ACTIVE)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Proves a runner is alive: refreshes the heartbeat of every active job it holds. */
export async function touchJobs(db: DbHandle, runner: string, now: string) {
  await db
    .updateTable('import_jobs')
    .set({ heartbeat_at: now })
    .where('runner', '=', runner)
    .where('status', 'in', ACTIVE)
    .execute();
}

/** Active jobs whose runner has not been heard from since `before`: their process is gone. */
export async function findStaleJobs(db: DbHandle, before: string) {
  return db
    .selectFrom('import_jobs')
    .select(['id', 'book_id'])
    .where('status', 'in', ACTIVE)
    .where('heartbeat_at', '<', before)
    .execute();
}

/** Fails a stale job, re-checking it is still stale so a job that came back to life is spared. */
export async function failStaleJob(
  db: DbHandle,
  id: number,
  before: string,
  message: string,
  now: string,
) {
  const result = await db
    .updateTable('import_jobs')
    .set({ status: 'failed', message, updated_at: now, finished_at: now })
    .where('id', '=', id)
    .where('status', 'in', ACTIVE)
    .where('heartbeat_at', '<', before)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
