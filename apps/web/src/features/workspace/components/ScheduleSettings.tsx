import type { Book } from '@inkwell/contract';
import { SCHEDULE_NOTE_MAX_LENGTH } from '@inkwell/contract/constants';
import { useState, type FormEvent } from 'react';
import { SubmitButton } from '../../../components/BusyButton.tsx';
import { useLeaveGuard } from '../../../components/LeaveGuard.tsx';
import { useToasts } from '../../../components/toasts.tsx';
import { apiErrorMessage } from '../../../lib/api.ts';
import { useUpdateBook } from '../api/workspace.ts';

/** What leaving with the schedule edited but not saved loses (the leave guard asks). */
export const SCHEDULE_UNSAVED =
  'Your changes to the release schedule are not saved. Leave, and they are lost.';

/**
 * The book page's release schedule (issue 20): whether it shows when the next scheduled chapter
 * comes out ("Next chapter in 2 days"), and a line the author writes.
 */
export function ScheduleSettings({ book }: { book: Book }) {
  const { push } = useToasts();
  const [show, setShow] = useState(book.show_next_release ?? false);
  const [note, setNote] = useState(book.schedule_note ?? '');
  const [error, setError] = useState<string | null>(null);
  // What the server has, as this form last saved it (or loaded it).
  const [saved, setSaved] = useState({ show, note: note.trim() });
  useLeaveGuard(show === saved.show && note.trim() === saved.note ? null : SCHEDULE_UNSAVED);
  const save = useUpdateBook(book.id, {
    onSuccess: () => push('Updated the release schedule.', { type: 'SUCCESS' }),
    onError: (err) => setError(apiErrorMessage(err, 'Could not save the release schedule.')),
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const sent = { show, note: note.trim() };
    save.mutate(
      { show_next_release: sent.show, schedule_note: sent.note },
      { onSuccess: () => setSaved(sent) },
    );
  };

  return (
    <section className="workspace-panel" aria-labelledby="schedule-title">
      <h2 id="schedule-title">Release schedule</h2>
      <form className="form" onSubmit={submit} noValidate>
        <label className="checkbox-field">
          <input type="checkbox" checked={show} onChange={(e) => setShow(e.target.checked)} />
          Show next release on the book page
        </label>
        <div className="field">
          <label htmlFor="book-schedule-note">Schedule line</label>
          <input
            id="book-schedule-note"
            value={note}
            maxLength={SCHEDULE_NOTE_MAX_LENGTH}
            placeholder="New chapters every Tuesday and Friday"
            onChange={(e) => setNote(e.target.value)}
          />
        </div>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div>
          <SubmitButton className="button" busy={save.isPending}>
            {save.isPending ? 'Saving...' : 'Save schedule'}
          </SubmitButton>
        </div>
      </form>
    </section>
  );
}
