import { NOTE_BODY_MAX_LENGTH } from '@inkwell/contract/constants';
import { useId, useState, type FormEvent } from 'react';
import { SubmitButton } from '../../../components/BusyButton.tsx';
import { getErrorDetail } from '../errors.ts';

interface NoteFormProps {
  label: string;
  initial?: string;
  submitLabel: string;
  onSubmit(body: string): Promise<unknown>;
  onCancel(): void;
}

/** The text of a note, for a new note or an edit. Stays open with the error when saving fails. */
export function NoteForm({ label, initial = '', submitLabel, onSubmit, onCancel }: NoteFormProps) {
  const id = useId();
  const [body, setBody] = useState(initial);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!body.trim() || pending) return;
    setPending(true);
    setError(null);
    try {
      await onSubmit(body.trim());
    } catch (err) {
      setError(getErrorDetail(err, 'Could not save the note.'));
    } finally {
      setPending(false);
    }
  };

  return (
    <form className="form note-form" onSubmit={submit}>
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <textarea
          id={id}
          value={body}
          maxLength={NOTE_BODY_MAX_LENGTH}
          rows={3}
          required
          autoFocus
          onChange={(e) => setBody(e.target.value)}
        />
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="note-actions">
        <SubmitButton className="button button-small" disabled={!body.trim()} busy={pending}>
          {submitLabel}
        </SubmitButton>
        <button type="button" className="button button-small button-quiet" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
