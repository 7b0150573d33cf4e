/**
 * The search parameter naming the paragraph whose comment thread is open ("?thread=N", 0-based):
 * the margin counts and "Comment on this paragraph" set it, the thread panel reads it. Its own
 * module, so the reader's route can set it without loading the comments' code.
 */
export const THREAD_PARAM = 'thread';

/** The paragraph of a "?thread=" value, or null. */
export const threadParagraph = (value: string | null): number | null =>
  value !== null && /^\d{1,7}$/.test(value) ? Number(value) : null;

/** The search parameters with the thread of `paragraph` open, or none open (null). */
export function withThread(params: URLSearchParams, paragraph: number | null): URLSearchParams {
  const next = new URLSearchParams(params);
  if (paragraph === null) next.delete(THREAD_PARAM);
  else next.set(THREAD_PARAM, String(paragraph));
  return next;
}
