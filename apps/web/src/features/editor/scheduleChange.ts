import type { Chapter } from '@inkwell/contract';
import { isApiError } from '../../lib/api.ts';

/**
 * Sends a change of the chapter's schedule (a new time, or null to cancel it). The release may
 * have gone out a moment before: the server then answers 409 "already published" (or, for a
 * chapter read as published, the chapter itself), and the change did not happen. Then the answer
 * is the published chapter with `released`, so the editor says it came out rather than "Schedule
 * cancelled". Any other refusal is the caller's to show.
 */
export async function changeSchedule(
  send: () => Promise<Chapter>,
  read: () => Promise<Chapter>,
): Promise<{ chapter: Chapter; released: boolean }> {
  try {
    const chapter = await send();
    return { chapter, released: chapter.is_published };
  } catch (error) {
    if (!isApiError(error, 409)) throw error;
    const chapter = await read().catch(() => null);
    if (chapter?.is_published) return { chapter, released: true };
    throw error;
  }
}
