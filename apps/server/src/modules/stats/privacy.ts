import { STATS_PRIVACY_FLOOR } from '@inkwell/contract/constants';

/**
 * The one privacy rule of the reader statistics (issue 20): a figure computed from fewer than
 * STATS_PRIVACY_FLOOR readers is not shown (null), so that no figure narrows down to a few
 * people whom an author might recognise. Every chapter, retention and paragraph figure passes
 * through here with the readers behind it.
 *
 * Readers of two kinds stand behind a chapter's figures: signed-in readers and visitors' browser
 * sessions. Anyone can add sessions (a view beacon takes any session id), so the floor holds for
 * each kind on its own: were it applied to the sum, an author could send five beacons to lift a
 * chapter that two signed-in readers reached over the floor, and subtract. A kind is either
 * absent (0, which tells of nobody) or at least at the floor.
 */
export interface Readers {
  signedIn: number;
  sessions: number;
}

/** Whether figures standing on these readers may be shown (a number: readers of one kind). */
export function enoughReaders(readers: number | Readers): boolean {
  const kinds = typeof readers === 'number' ? [readers] : [readers.signedIn, readers.sessions];
  const total = kinds.reduce((sum, n) => sum + n, 0);
  return total >= STATS_PRIVACY_FLOOR && kinds.every((n) => n === 0 || n >= STATS_PRIVACY_FLOOR);
}

export function shownFor(figure: number, readers: number | Readers): number | null {
  return enoughReaders(readers) ? figure : null;
}
