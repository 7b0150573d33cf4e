import type { LibraryEntry, ReadingStatus } from '@inkwell/contract';
import { paths } from '../../lib/paths.ts';

/** The statuses in the order the control and the page list them, with their names. */
export const STATUS_LABELS: Record<ReadingStatus, string> = {
  reading: 'Reading',
  want_to_read: 'Want to read',
  finished: 'Finished',
  dropped: 'Dropped',
  none: 'Not on a shelf',
};

export const progressText = ({ chapters_read, total_chapters }: LibraryEntry['progress']) =>
  `${chapters_read} of ${total_chapters} ${total_chapters === 1 ? 'chapter' : 'chapters'} read`;

/** Where "Continue reading" goes: the saved paragraph; null when nothing was read yet. */
export const continueReadingPath = (entry: Pick<LibraryEntry, 'book' | 'position'>) =>
  entry.position
    ? paths.chapterAt(entry.book.id, entry.position.chapter_id, entry.position.paragraph)
    : null;
