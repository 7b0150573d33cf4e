import { describe, expect, it, vi } from 'vitest';
import { ViewCounter, type ViewBatch } from '../../src/modules/stats/view-counter.ts';

/** Issue 20: visitors' views counted in memory and written in batches (modules/stats). */
function counter(options: { maxPending?: number; write?: (views: ViewBatch[]) => Promise<void> }) {
  const batches: ViewBatch[][] = [];
  const log = { warn: vi.fn() };
  const views = new ViewCounter({
    intervalMs: 60_000,
    maxPending: options.maxPending,
    log,
    write:
      options.write ??
      (async (batch) => {
        batches.push(batch);
      }),
  });
  return { views, batches, log };
}

describe('the view counter', () => {
  it('keeps a session once per chapter until the batch, and writes nothing for nothing', async () => {
    const { views, batches } = counter({});
    await views.flush();
    expect(batches).toEqual([]);
    views.add(1, 'a');
    views.add(1, 'a');
    views.add(1, 'b');
    views.add(2, 'a');
    expect(views.waiting).toBe(3);
    await views.flush();
    expect(batches).toEqual([
      [
        { chapter_id: 1, session: 'a' },
        { chapter_id: 1, session: 'b' },
        { chapter_id: 2, session: 'a' },
      ],
    ]);
    expect(views.waiting).toBe(0);
    // After a batch the same session may come again: the table's key keeps it once.
    views.add(1, 'a');
    await views.flush();
    expect(batches[1]).toEqual([{ chapter_id: 1, session: 'a' }]);
  });

  it('writes at once when maxPending views wait, and drops views while the database is behind', async () => {
    const releases: (() => void)[] = [];
    const written: number[] = [];
    const { views } = counter({
      maxPending: 2,
      write: (batch) =>
        new Promise((resolve) => {
          releases.push(() => {
            written.push(batch.length);
            resolve();
          });
        }),
    });
    views.add(1, 'a');
    views.add(1, 'b'); // full: the first batch goes
    views.add(1, 'c');
    views.add(1, 'd'); // full again: a second batch waits behind the first
    views.add(1, 'e');
    views.add(1, 'f'); // two batches queued: no third
    views.add(1, 'g'); // dropped: memory stays bounded
    expect(views.waiting).toBe(2);
    await vi.waitFor(() => expect(releases).toHaveLength(1));
    releases[0]!();
    await vi.waitFor(() => expect(releases).toHaveLength(2));
    releases[1]!();
    const last = views.stop();
    await vi.waitFor(() => expect(releases).toHaveLength(3));
    releases[2]!();
    await last;
    expect(written).toEqual([2, 2, 2]);
  });

  it('logs a batch the database refuses, drops it, and goes on', async () => {
    let fail = true;
    const kept: ViewBatch[][] = [];
    const { views, log } = counter({
      write: async (batch) => {
        if (fail) throw new Error('database away');
        kept.push(batch);
      },
    });
    views.add(1, 'a');
    await views.flush();
    expect(log.warn).toHaveBeenCalledWith(
      expect.objectContaining({ views: 1 }),
      'chapter views not written',
    );
    fail = false;
    views.add(1, 'b');
    await views.stop();
    expect(kept).toEqual([[{ chapter_id: 1, session: 'b' }]]);
  });
});
