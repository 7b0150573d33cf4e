import { renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useHistoryRecorder } from '../src/features/reader/useHistoryRecorder.ts';
import { ApiError } from '../src/lib/api.ts';
import { HISTORY_RECORD_AFTER_MS } from '../src/lib/constants.ts';

type Props = { bookId: number; chapterId: number; enabled: boolean };

function setup(initial: Props, record = vi.fn().mockResolvedValue({})) {
  const onRecorded = vi.fn();
  const hook = renderHook((props: Props) => useHistoryRecorder({ ...props, record, onRecorded }), {
    initialProps: initial,
  });
  return { hook, record, onRecorded };
}

describe('reading history timer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('records once after 60 s on a chapter, not before', async () => {
    const { record, onRecorded } = setup({ bookId: 1, chapterId: 7, enabled: true });
    await vi.advanceTimersByTimeAsync(HISTORY_RECORD_AFTER_MS - 1);
    expect(record).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(record).toHaveBeenCalledExactlyOnceWith(1, 7);
    expect(onRecorded).toHaveBeenCalledOnce();
    await vi.advanceTimersByTimeAsync(5 * HISTORY_RECORD_AFTER_MS);
    expect(record).toHaveBeenCalledOnce();
  });

  it('records at once on Next, and the timer does not record again', async () => {
    const { hook, record } = setup({ bookId: 1, chapterId: 7, enabled: true });
    await vi.advanceTimersByTimeAsync(10_000);
    hook.result.current();
    expect(record).toHaveBeenCalledExactlyOnceWith(1, 7);
    await vi.advanceTimersByTimeAsync(HISTORY_RECORD_AFTER_MS);
    expect(record).toHaveBeenCalledOnce();
  });

  it('starts again for the next chapter', async () => {
    const { hook, record } = setup({ bookId: 1, chapterId: 7, enabled: true });
    await vi.advanceTimersByTimeAsync(30_000);
    hook.rerender({ bookId: 1, chapterId: 8, enabled: true });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(record).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(record).toHaveBeenCalledExactlyOnceWith(1, 8);
  });

  it('does nothing for a signed-out reader', async () => {
    const { hook, record } = setup({ bookId: 1, chapterId: 7, enabled: false });
    hook.result.current();
    await vi.advanceTimersByTimeAsync(2 * HISTORY_RECORD_AFTER_MS);
    expect(record).not.toHaveBeenCalled();
  });

  it('ignores a 409 Conflict silently, and only logs other failures', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const conflict = vi.fn().mockRejectedValue(new ApiError(409, 'Conflict', 'conflict'));
    const first = setup({ bookId: 1, chapterId: 7, enabled: true }, conflict);
    await vi.advanceTimersByTimeAsync(HISTORY_RECORD_AFTER_MS);
    expect(conflict).toHaveBeenCalledOnce();
    expect(first.onRecorded).not.toHaveBeenCalled();
    expect(errors).not.toHaveBeenCalled();

    const broken = vi.fn().mockRejectedValue(new ApiError(500, 'Internal', 'internal'));
    setup({ bookId: 2, chapterId: 9, enabled: true }, broken);
    await vi.advanceTimersByTimeAsync(HISTORY_RECORD_AFTER_MS);
    expect(errors).toHaveBeenCalledOnce();
  });
});
