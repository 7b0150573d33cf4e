import type { Chapter } from '@inkwell/contract';
import { useEffect, useRef } from 'react';
import { readChapter } from './api/chapter.ts';

/** How long after its time a release is first looked for (the server releases within 5 s). */
const FIRST_LOOK_MS = 1_500;
const LOOK_EVERY_MS = 2_000;
const MAX_LOOKS = 10;
/** Beyond this a timer fires at once (about 24.8 days): such a schedule is looked at on a later visit. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A scheduled chapter comes out by itself on the server (issue 20). While its editor is open,
 * this asks the server, once its time has passed, until it is published (or a few looks later),
 * and hands the published chapter to `onReleased`, so the editor's Publish state follows.
 */
export function useScheduledRelease(
  chapterId: number,
  publishAt: string | null,
  onReleased: (chapter: Chapter) => void,
) {
  const released = useRef(onReleased);
  released.current = onReleased;
  useEffect(() => {
    if (!publishAt) return;
    const wait = Date.parse(publishAt) - Date.now();
    if (Number.isNaN(wait) || wait > MAX_TIMER_MS) return;
    let cancelled = false;
    let looks = 0;
    let timer: ReturnType<typeof setTimeout>;
    const look = async () => {
      try {
        const chapter = await readChapter(chapterId);
        if (cancelled) return;
        if (chapter.is_published) {
          released.current(chapter);
          return;
        }
      } catch {
        // Offline or refused: the next look, or a reload, tells.
      }
      if (!cancelled && ++looks < MAX_LOOKS) timer = setTimeout(() => void look(), LOOK_EVERY_MS);
    };
    timer = setTimeout(() => void look(), Math.max(0, wait) + FIRST_LOOK_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [chapterId, publishAt]);
}
