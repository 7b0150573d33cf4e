import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadConfig, readWorkerCount } from '../../src/config.ts';
import { AppError } from '../../src/lib/errors.ts';
import { workerReads } from '../../src/modules/reads/read-worker-pool.ts';

/**
 * The read workers' pool (decision 0041), with stand-in workers (fixtures/stand-in-read-worker.ts):
 * answers and errors cross the thread as the services gave them, and a worker that dies fails
 * only its own waiting reads, with a 503, and is started again at the next read. That the real
 * workers answer what the services answer is read-workers.test.ts's part, on both engines.
 */
const config = loadConfig({ DATABASE_URL: 'sqlite://unused.db' });
const standIn = new URL('./fixtures/stand-in-read-worker.ts', import.meta.url);

// The stand-in answers with its arguments; the reads' types do not describe it.
type Loose = (name: string, ...args: unknown[]) => Promise<unknown>;

describe('read worker pool', () => {
  it("answers reads, and sends an AppError back as the same AppError, a driver's error with its code", async () => {
    const troubles: string[] = [];
    const reads = workerReads(config, 2, (detail) => troubles.push(detail), standIn);
    const run = reads.run as unknown as Loose;
    try {
      expect(await run('listBooks', 'a', { limit: 3 })).toMatchObject({
        args: ['a', { limit: 3 }],
      });
      const failed = await run('listBooks', 'not found').catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(AppError);
      expect(failed).toMatchObject({ code: 'not_found', message: 'No such book', status: 404 });
      // A driver's error keeps its code, by which the error handler answers 503 "retry".
      const busy = await run('listBooks', 'busy').catch((error: unknown) => error);
      expect(busy).toBeInstanceOf(Error);
      expect(busy).not.toBeInstanceOf(AppError);
      expect(busy).toMatchObject({ code: 'SQLITE_BUSY', message: 'database is locked' });
      expect((busy as Error).stack).toContain('stand-in-read-worker.ts');
      expect(troubles).toEqual([]);
    } finally {
      await reads.close();
    }
  });

  it('fails the reads of a worker that died with a 503, and starts it again at the next read', async () => {
    const troubles: string[] = [];
    const reads = workerReads(config, 1, (detail) => troubles.push(detail), standIn);
    const run = reads.run as unknown as Loose;
    try {
      expect(await run('searchBooks', 'before')).toMatchObject({ args: ['before'] });
      const lost = await run('searchBooks', 'exit').catch((error: unknown) => error);
      expect(lost).toBeInstanceOf(AppError);
      expect(lost).toMatchObject({ code: 'unavailable', status: 503 });
      expect(troubles).toEqual(['read worker exited with code 3']);
      expect(await run('searchBooks', 'after')).toMatchObject({ args: ['after'] });
    } finally {
      await reads.close();
    }
  });

  it('starts its workers at warm(), which settles when they are ready or have ended', async () => {
    const reads = workerReads(config, 2, () => {}, standIn);
    const run = reads.run as unknown as Loose;
    try {
      await reads.warm();
      expect(await run('listBooks', 'warm')).toMatchObject({ args: ['warm'] });
    } finally {
      await reads.close();
    }
    const troubles: string[] = [];
    const broken = workerReads(
      loadConfig({ DATABASE_URL: 'sqlite://exit-at-start.db' }),
      2,
      (detail) => troubles.push(detail),
      standIn,
    );
    await broken.warm();
    expect(troubles).toEqual(['read worker exited with code 4', 'read worker exited with code 4']);
    await broken.close();
  });

  it('spreads reads over its workers and closes them all', async () => {
    const reads = workerReads(config, 2, () => {}, standIn);
    const run = reads.run as unknown as Loose;
    const answers = (await Promise.all([run('listBooks', 1), run('listBooks', 2)])) as {
      threadId: number;
    }[];
    expect(new Set(answers.map((a) => a.threadId)).size).toBe(2);
    await reads.close();
    await expect(run('listBooks', 3)).rejects.toMatchObject({ code: 'unavailable' });
  });
});

describe('READ_WORKERS', () => {
  const count = (env: Record<string, string>) => readWorkerCount(loadConfig(env));

  it('is one per CPU on a SQLite file and none on PostgreSQL, unless set', () => {
    expect(count({ DATABASE_URL: 'sqlite://data/app.db' })).toBe(os.availableParallelism());
    expect(count({ DATABASE_URL: 'postgres://localhost/inkwell' })).toBe(0);
    expect(count({ DATABASE_URL: 'postgres://localhost/inkwell', READ_WORKERS: '2' })).toBe(2);
    expect(count({ DATABASE_URL: 'sqlite://data/app.db', READ_WORKERS: '0' })).toBe(0);
  });

  it('is none on an in-memory SQLite database, which no other connection can open', () => {
    expect(count({ DATABASE_URL: 'sqlite::memory:', READ_WORKERS: '2' })).toBe(0);
  });

  it('refuses what is not a number of threads', () => {
    expect(() => loadConfig({ READ_WORKERS: 'many' })).toThrow(/READ_WORKERS/);
    expect(() => loadConfig({ READ_WORKERS: '-1' })).toThrow(/READ_WORKERS/);
  });
});
