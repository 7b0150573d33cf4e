import type { BookRating, BookStatus } from '@inkwell/contract';
import { BOOK_RATINGS, BOOK_STATUSES, CONTENT_WARNINGS } from '@inkwell/contract/constants';

/** What readers see for a book's rating, status and warnings (issue 21); the API sends ids. */
export const RATING_LABELS: Record<BookRating, string> = {
  general: 'General',
  teen: 'Teen',
  mature: 'Mature',
  explicit: 'Explicit',
};

export const STATUS_LABELS: Record<BookStatus, string> = {
  ongoing: 'Ongoing',
  completed: 'Completed',
  hiatus: 'On hiatus',
  dropped: 'Dropped',
};

/** The choices of a rating or status field, in the contract's order. */
export const RATING_OPTIONS = BOOK_RATINGS.map((id) => ({ id, name: RATING_LABELS[id] }));
export const STATUS_OPTIONS = BOOK_STATUSES.map((id) => ({ id, name: STATUS_LABELS[id] }));

const WARNING_NAMES = new Map<string, string>(CONTENT_WARNINGS.map((w) => [w.id, w.name]));
export const warningName = (id: string): string => WARNING_NAMES.get(id) ?? id;

const wordFormat = new Intl.NumberFormat('en');
export const wordCount = (words: number): string =>
  `${wordFormat.format(words)} ${words === 1 ? 'word' : 'words'}`;
