import { useId, useState, type FormEvent } from 'react';
import { BusyButton, SubmitButton } from '../../../components/BusyButton.tsx';
import { apiErrorMessage } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';

/** The author's time zone, as the picker's times are read in it (e.g. "Europe/Paris"). */
const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** An instant as a datetime-local value in the author's zone, to the second. */
function toLocalInput(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

/** The picker's default: tomorrow at this hour, on the hour. */
function tomorrow(): Date {
  const date = new Date(Date.now() + 86_400_000);
  date.setMinutes(0, 0, 0);
  return date;
}

export interface ScheduleControlProps {
  /** When the chapter's publication is scheduled; null when it is not. */
  publishAt: string | null;
  disabled: boolean;
  /** Sends the schedule (an ISO instant), or null to cancel it; a rejection is shown. */
  onSchedule(publishAt: string | null): Promise<unknown>;
}

/**
 * "Schedule" beside Publish (issue 20): a date-and-time picker read in the author's time zone,
 * which it names, and, once scheduled, when and a way to cancel. Only for a draft.
 */
export function ScheduleControl({ publishAt, disabled, onSchedule }: ScheduleControlProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState(() => toLocalInput(tomorrow()));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const send = async (next: string | null) => {
    setBusy(true);
    setError(null);
    try {
      await onSchedule(next);
      setOpen(false);
    } catch (err) {
      setError(apiErrorMessage(err, 'Could not change the schedule.'));
    } finally {
      setBusy(false);
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    // A datetime-local value names a wall-clock time: Date reads it in this browser's zone.
    const when = new Date(value);
    if (!value || Number.isNaN(when.getTime())) {
      setError('Choose a date and a time.');
      return;
    }
    if (when.getTime() <= Date.now()) {
      setError('Choose a time in the future.');
      return;
    }
    void send(when.toISOString());
  };

  return (
    <div className="chapter-schedule">
      {publishAt ? (
        <p className="chapter-schedule-state">
          <span>
            Scheduled for {formatDateTime(publishAt)} ({timeZone()})
          </span>{' '}
          <BusyButton
            className="button button-small button-secondary"
            disabled={disabled}
            busy={busy}
            onClick={() => void send(null)}
          >
            Cancel schedule
          </BusyButton>
        </p>
      ) : (
        <button
          type="button"
          className="button button-secondary"
          aria-expanded={open}
          aria-controls={`${id}-form`}
          disabled={disabled}
          onClick={() => {
            setOpen((o) => !o);
            setError(null);
          }}
        >
          Schedule
        </button>
      )}
      {open && !publishAt && (
        <form id={`${id}-form`} className="form chapter-schedule-form" onSubmit={submit} noValidate>
          <div className="field">
            <label htmlFor={`${id}-when`}>Publish on (time zone: {timeZone()})</label>
            <input
              id={`${id}-when`}
              type="datetime-local"
              step={1}
              value={value}
              aria-invalid={error !== null || undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(e) => setValue(e.target.value)}
            />
          </div>
          <SubmitButton className="button" disabled={disabled} busy={busy}>
            Save schedule
          </SubmitButton>
        </form>
      )}
      {error && (
        <p id={`${id}-error`} className="form-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
