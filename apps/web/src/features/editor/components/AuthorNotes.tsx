import type { Chapter } from '@inkwell/contract';
import { AUTHOR_NOTE_MAX_LENGTH } from '@inkwell/contract/constants';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { SubmitButton } from '../../../components/BusyButton.tsx';
import { apiErrorMessage } from '../../../lib/api.ts';
import {
  overLimit,
  paragraphsToText,
  textToParagraphs,
  tooLongMessage,
} from '../../../lib/plainText.ts';

type NoteKey = 'note_before' | 'note_after';
export type NoteChanges = Partial<Record<NoteKey, string>>;

export interface AuthorNotesProps {
  noteBefore: string;
  noteAfter: string;
  disabled: boolean;
  /**
   * Saves the notes that changed, only those (HTML paragraphs; '' removes one), and answers the
   * chapter as saved; a rejection is shown.
   */
  onSave(notes: NoteChanges): Promise<Pick<Chapter, NoteKey>>;
  /** Whether some typed note is not saved yet (the editor asks before leaving then). */
  onUnsavedChange(unsaved: boolean): void;
}

const FIELDS: { key: NoteKey; label: string }[] = [
  { key: 'note_before', label: 'Note before the chapter' },
  { key: 'note_after', label: 'Note after the chapter' },
];

/**
 * The author's notes before and after the chapter (issue 20): plain text, paragraphs apart by a
 * blank line. Readers see them set apart from the text; they never count as the chapter's words.
 * A save sends only a note whose text changed, so a note untouched here keeps its HTML as it is
 * (links or emphasis set through the API are not flattened to text).
 */
export function AuthorNotes({
  noteBefore,
  noteAfter,
  disabled,
  onSave,
  onUnsavedChange,
}: AuthorNotesProps) {
  const id = useId();
  // Each saved note's text as the box shows it: what the typed text is compared with.
  const [saved, setSaved] = useState<Record<NoteKey, string>>(() => ({
    note_before: paragraphsToText(noteBefore),
    note_after: paragraphsToText(noteAfter),
  }));
  const [typed, setTyped] = useState(saved);
  const [state, setState] = useState<{ busy: boolean; error: string | null; saved: boolean }>({
    busy: false,
    error: null,
    saved: false,
  });

  const changed = FIELDS.map((f) => f.key).filter((key) => typed[key] !== saved[key]);
  const over = (key: NoteKey) => overLimit(typed[key], AUTHOR_NOTE_MAX_LENGTH);
  const unsaved = changed.length > 0;
  useEffect(() => onUnsavedChange(unsaved), [unsaved, onUnsavedChange]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (changed.length === 0) {
      setState({ busy: false, error: null, saved: true });
      return;
    }
    if (changed.some((key) => over(key) > 0)) {
      setState({ busy: false, error: 'Shorten the note before saving it.', saved: false });
      return;
    }
    const notes: NoteChanges = {};
    for (const key of changed) notes[key] = textToParagraphs(typed[key]);
    setState({ busy: true, error: null, saved: false });
    try {
      await onSave(notes);
      setSaved((current) => {
        const next = { ...current };
        // What was sent is what is saved now, whatever was typed meanwhile.
        for (const key of changed) next[key] = typed[key];
        return next;
      });
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
      <form className="form" onSubmit={submit} noValidate>
        {FIELDS.map(({ key, label }) => {
          const tooLong = over(key);
          return (
            <div className="field" key={key}>
              <label htmlFor={`${id}-${key}`}>{label}</label>
              <textarea
                id={`${id}-${key}`}
                rows={3}
                value={typed[key]}
                aria-invalid={tooLong > 0 || undefined}
                aria-describedby={tooLong > 0 ? `${id}-${key}-long` : undefined}
                onChange={(e) => {
                  const text = e.target.value;
                  setTyped((t) => ({ ...t, [key]: text }));
                  setState((s) => (s.saved ? { ...s, saved: false } : s));
                }}
              />
              {tooLong > 0 && (
                <p id={`${id}-${key}-long`} className="form-error">
                  {tooLongMessage(tooLong)}
                </p>
              )}
            </div>
          );
        })}
        <p className="muted">Notes are not counted in the chapter&rsquo;s words or reading time.</p>
        <SubmitButton className="button" disabled={disabled} busy={state.busy}>
          Save notes
        </SubmitButton>{' '}
        <span role="status">
          {state.saved && !unsaved ? 'Notes saved.' : unsaved ? 'Notes not saved yet.' : ''}
        </span>
        {state.error && (
          <p className="form-error" role="alert">
            {state.error}
          </p>
        )}
      </form>
    </details>
  );
}
