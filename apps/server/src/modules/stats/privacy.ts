import { STATS_PRIVACY_FLOOR } from '@inkwell/contract/constants';

/**
 * The one privacy rule of the reader statistics (issue 20): a figure computed from fewer than
 * STATS_PRIVACY_FLOOR readers is not shown (null), so that no figure narrows down to a few
 * people whom an author might recognise. Every chapter, retention and paragraph figure passes
 * through here with the readers behind it.
 *
 * Readers of two kinds stand behind a chapter's figures: signed-in readers and visitors' browser
 * sessions. Anyone can add sessions (a view beacon takes any session id), so were the floor
 * applied to the sum alone, an author could send five beacons to lift a chapter that two
 * signed-in readers reached over it, and subtract. So the signed-in readers pass the floor on
 * their own, or are none at all (0 tells of nobody); sessions only add to the sum. Sessions are
 * random ids that name no one (the people an author might recognise have accounts), and a
 * padded figure tells the author at most the sum of real readers, never the signed-in part.
 */
export interface Readers {
  signedIn: number;
  sessions: number;
}

/** Whether figures standing on these readers may be shown (a number: signed-in readers alone). */
export function enoughReaders(readers: number | Readers): boolean {
  const { signedIn, sessions } =
    typeof readers === 'number' ? { signedIn: readers, sessions: 0 } : readers;
  const floorOrNone = signedIn === 0 || signedIn >= STATS_PRIVACY_FLOOR;
  return floorOrNone && signedIn + sessions >= STATS_PRIVACY_FLOOR;
}

export function shownFor(figure: number, readers: number | Readers): number | null {
  return enoughReaders(readers) ? figure : null;
}
