import { afterEach, describe, expect, it, vi } from 'vitest';
import { keepSessionFor, pendingWritesEnded } from './pending-writes.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('writes a logout waits for', () => {
  it('ends at once with none, and otherwise once every kept write has ended, refused or not', async () => {
    await pendingWritesEnded();
    let land!: () => void;
    let refuse!: (error: Error) => void;
    keepSessionFor(new Promise<void>((resolve) => (land = resolve)));
    keepSessionFor(new Promise<void>((_, reject) => (refuse = reject)));
    let ended = false;
    const waiting = pendingWritesEnded().then(() => (ended = true));
    land();
    await Promise.resolve();
    await Promise.resolve();
    expect(ended).toBe(false);
    refuse(new Error('offline'));
    await waiting;
    expect(ended).toBe(true);
  });

  it('stops waiting after its time limit, so logging out never hangs', async () => {
    vi.useFakeTimers();
    keepSessionFor(new Promise(() => {}));
    let ended = false;
    const waiting = pendingWritesEnded(1_000).then(() => (ended = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(ended).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect(ended).toBe(true);
  });
});
