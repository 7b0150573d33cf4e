import type { Book } from '@inkwell/contract';
import { formatDateTime } from '../../../lib/format.ts';

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'always' });

/** "in 2 days", "in 3 hours", "in 5 minutes": the largest unit that fits, rounded down. */
export function relativeTo(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, (Date.parse(iso) - now) / 1000);
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ];
  for (const [unit, size] of units)
    if (seconds >= size) return relative.format(Math.floor(seconds / size), unit);
  return relative.format(Math.ceil(seconds), 'second');
}

/**
 * The book page's schedule (issue 20), each part only when the author chose it: "Next chapter
 * in 2 days" and the author's schedule line.
 */
export function ReleaseSchedule({ book }: { book: Book }) {
  const due = book.show_next_release ? book.next_release_at : null;
  // A time already past is being released: the page will show the chapter, not a countdown.
  const next = due && Date.parse(due) > Date.now() ? due : null;
  if (!next && !book.schedule_note) return null;
  return (
    <div className="book-schedule">
      {next && (
        <p>
          <strong>
            Next chapter{' '}
            <time dateTime={next} title={formatDateTime(next)}>
              {relativeTo(next)}
            </time>
          </strong>
        </p>
      )}
      {book.schedule_note && <p className="muted">{book.schedule_note}</p>}
    </div>
  );
}
