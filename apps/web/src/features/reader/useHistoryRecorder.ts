import { useCallback, useEffect, useRef } from 'react';
import { isApiError } from '../../lib/api.ts';
import { HISTORY_RECORD_AFTER_MS } from '../../lib/constants.ts';

interface Options {
  bookId: number;
  chapterId: number;
  /** Only signed-in readers have a history. */
  enabled: boolean;
  record(bookId: number, chapterId: number): Promise<unknown>;
  onRecorded?(): void;
  delayMs?: number;
}

/**
 * Reading progress (SPEC section 4): one history record after 60 s on a chapter, or at once when
 * the reader moves on with Next. A 409 (already recorded) is expected and ignored; other failures
 * are only logged, as the spec's client does.
 */
export function useHistoryRecorder({
  bookId,
  chapterId,
  enabled,
  record,
  onRecorded,
  delayMs = HISTORY_RECORD_AFTER_MS,
}: Options) {
  const recorded = useRef<string | null>(null);
  const latest = useRef({ record, onRecorded });
  latest.current = { record, onRecorded };
  const key = `${bookId}:${chapterId}`;

  const recordNow = useCallback(() => {
    if (!enabled || recorded.current === key) return;
    recorded.current = key;
    latest.current
      .record(bookId, chapterId)
      .then(() => latest.current.onRecorded?.())
      .catch((error: unknown) => {
        if (isApiError(error, 409)) return;
        console.error('Could not record reading history', error);
      });
  }, [enabled, key, bookId, chapterId]);

  useEffect(() => {
    if (!enabled) return;
    const timer = setTimeout(recordNow, delayMs);
    return () => clearTimeout(timer);
  }, [enabled, recordNow, delayMs]);

  return recordNow;
}
