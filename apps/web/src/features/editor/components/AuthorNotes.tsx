import { AUTHOR_NOTE_MAX_LENGTH } from '@inkwell/contract/constants';
import { useId, useState, type FormEvent } from 'react';
import { apiErrorMessage } from '../../../lib/api.ts';
import { paragraphsToText, textToParagraphs } from '../../../lib/plainText.ts';

export interface AuthorNotesProps {
  noteBefore: string;
  noteAfter: string;
  disabled: boolean;
  /** Saves both notes (HTML paragraphs; '' removes one); a rejection is shown. */
  onSave(notes: { note_before: string; note_after: string }): Promise<unknown>;
}

/**
 * The author's notes before and after the chapter (issue 20): plain text, paragraphs apart by a
 * blank line. Readers see them set apart from the text; they never count as the chapter's words.
 */
export function AuthorNotes({ noteBefore, noteAfter, disabled, onSave }: AuthorNotesProps) {
  const id = useId();
  const [before, setBefore] = useState(() => paragraphsToText(noteBefore));
  const [after, setAfter] = useState(() => paragraphsToText(noteAfter));
  const [state, setState] = useState<{ busy: boolean; error: string | null; saved: boolean }>({
    busy: false,
    error: null,
    saved: false,
  });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setState({ busy: true, error: null, saved: false });
    try {
      await onSave({ note_before: textToParagraphs(before), note_after: textToParagraphs(after) });
      setState({ busy: false, error: null, saved: true });
    } catch (err) {
      setState({
        busy: false,
        error: apiErrorMessage(err, 'Could not save the notes.'),
        saved: false,
      });
    }
  };

  return (
    <details className="author-notes-editor" open={Boolean(noteBefore || noteAfter) || undefined}>
      <summary>Author&rsquo;s notes</summary>
      <form className="form" onSubmit={submit}>
        <div className="field">
          <label htmlFor={`${id}-before`}>Note before the chapter</label>
          <textarea
            id={`${id}-before`}
            rows={3}
            value={before}
            maxLength={AUTHOR_NOTE_MAX_LENGTH}
            onChange={(e) => setBefore(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-after`}>Note after the chapter</label>
          <textarea
            id={`${id}-after`}
            rows={3}
            value={after}
            maxLength={AUTHOR_NOTE_MAX_LENGTH}
            onChange={(e) => setAfter(e.target.value)}
          />
        </div>
        <p className="muted">Notes are not counted in the chapter&rsquo;s words or reading time.</p>
        <button type="submit" className="button" disabled={disabled || state.busy}>
          Save notes
        </button>{' '}
        <span role="status">{state.saved ? 'Notes saved.' : ''}</span>
        {state.error && (
          <p className="form-error" role="alert">
            {state.error}
          </p>
        )}
      </form>
    </details>
  );
}
