import { STATS_PRIVACY_FLOOR } from '@inkwell/contract/constants';

/**
 * The one privacy rule of the reader statistics (issue 20): a figure computed from fewer than
 * STATS_PRIVACY_FLOOR readers is not shown (null), so that no figure narrows down to a few
 * people whom an author might recognise. Every chapter, retention and paragraph figure passes
 * through here with the number of readers behind it.
 */
export function shownFor(figure: number, readers: number): number | null {
  return readers >= STATS_PRIVACY_FLOOR ? figure : null;
}
