import { describe, expect, it } from 'vitest';
import { startWorkerJob, type WorkerTrouble } from '../../src/lib/worker-job.ts';

const script = new URL('./fixtures/thread-id-worker.ts', import.meta.url);

interface Answer {
  threadId: number;
  late?: true;
  failed?: true;
}

/** One job: posts `message` and finishes with the first answer (every answer is recorded). */
function ask(message: string, { timeoutMs = 10_000, maxHeapMb = 64 } = {}) {
  const answers: Answer[] = [];
  const job = startWorkerJob<Answer>(
    script,
    { timeoutMs, maxHeapMb },
    {
      onMessage(answer, { finish }) {
        answers.push(answer as Answer);
        finish((answer as Answer).failed ? new Error('failed') : (answer as Answer));
      },
      failure: (trouble: WorkerTrouble) => new Error(trouble.kind),
    },
  );
  job.post(message);
  return { ...job, answers };
}

describe('worker jobs', () => {
  it('runs the next job on the worker that answered the last, instead of starting another', async () => {
    const first = await ask('id').result;
    const second = await ask('id').result;
    expect(second.threadId).toBe(first.threadId);
  });

  it('never keeps a worker that timed out or was cancelled', async () => {
    const before = await ask('id').result;
    await expect(ask('hang', { timeoutMs: 50 }).result).rejects.toThrow('timeout');
    const cancelled = ask('hang');
    cancelled.cancel(new Error('stop'));
    await expect(cancelled.result).rejects.toThrow('stop');
    const after = await ask('id').result;
    expect(after.threadId).not.toBe(before.threadId);
  });

  it('never keeps a worker whose job ended in an error: it may still be busy with it', async () => {
    // The last worker kept is the first taken: the failing job runs on this one.
    const kept = await ask('id').result;
    await expect(ask('fail').result).rejects.toThrow('failed');
    const after = await ask('id').result;
    expect(after.threadId).not.toBe(kept.threadId);
  });

  it('survives a kept worker that throws while idle, and starts another', async () => {
    const { threadId } = await ask('throw-later').result;
    // The worker throws with no job listening: the process must not hear it as unhandled.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const next = await ask('id').result;
    expect(next.threadId).not.toBe(threadId);
  });

  it('runs jobs at once on workers of their own, and keeps workers apart by heap limit', async () => {
    const [a, b] = await Promise.all([ask('id').result, ask('id').result]);
    expect(a.threadId).not.toBe(b.threadId);
    const bigger = await ask('id', { maxHeapMb: 96 }).result;
    expect([a.threadId, b.threadId]).not.toContain(bigger.threadId);
  });

  it('keeps what a worker sends about a finished job away from the next job', async () => {
    const first = ask('late');
    const { threadId } = await first.result;
    const next = ask('hang', { timeoutMs: 300 });
    await expect(next.result).rejects.toThrow('timeout');
    expect(next.answers).toEqual([]);
    expect(first.answers).toEqual([{ threadId }]);
  });
});
