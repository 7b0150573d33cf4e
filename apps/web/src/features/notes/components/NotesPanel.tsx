import { useQuery } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths.ts';
import { Loading, Status } from '../../../components/Status.tsx';
import { notesQuery, useNoteWrites } from '../api/notes.ts';
import { NoteForm } from './NoteForm.tsx';
import { NoteItem } from './NoteItem.tsx';
import '../notes.css';

/** Selected text of a chapter and the index of the paragraph it starts in. */
export interface Quote {
  paragraph: number;
  text: string;
}

interface NotesPanelProps {
  bookId: number;
  /** Notes of this chapter, and new notes attach to it; without it, the whole book's. */
  chapterId?: number;
  heading: string;
  hint: string;
  addLabel: string;
  /** The current text selection: while there is one, an "Add note" button quotes it. */
  selection?: Quote | null;
  /** More actions for the selection, beside "Add note" (the app adds "Comment on this paragraph"). */
  selectionActions?(quote: Quote): ReactNode;
}

/** A list of the reader's notes with a form to add one (quoting a selection when given). */
export function NotesPanel({
  bookId,
  chapterId,
  heading,
  hint,
  addLabel,
  selection,
  selectionActions,
}: NotesPanelProps) {
  const id = useId();
  const writes = useNoteWrites();
  const notes = useQuery(notesQuery({ bookId, chapterId }));
  // The draft keeps its quote even when the selection goes away (typing in the form clears it).
  const [draft, setDraft] = useState<Quote | { paragraph: null; text: null } | null>(null);

  const save = async (body: string) => {
    await writes.create({
      book_id: bookId,
      chapter_id: chapterId ?? null,
      paragraph: draft?.paragraph ?? null,
      quote: draft?.text ?? null,
      body,
    });
    setDraft(null);
  };

  return (
    <section className="notes-panel" aria-labelledby={`${id}-title`}>
      {selection && !draft && (
        // Keep the selection: a mouse press on a button must not clear it first.
        <div className="selection-menu" onMouseDown={(e) => e.preventDefault()}>
          {selectionActions?.(selection)}
          <button
            type="button"
            className="button add-note-button"
            onClick={() => setDraft(selection)}
          >
            Add note
          </button>
        </div>
      )}
      <h2 id={`${id}-title`}>{heading}</h2>
      <p className="muted">
        {hint} <Link to={paths.myNotes}>All my notes</Link>
      </p>
      {draft ? (
        <div className="note-draft">
          {draft.text && <blockquote className="note-quote">{draft.text}</blockquote>}
          <NoteForm
            label="Your note"
            submitLabel="Save note"
            onSubmit={save}
            onCancel={() => setDraft(null)}
          />
        </div>
      ) : (
        <button
          type="button"
          className="button button-small button-secondary"
          onClick={() => setDraft({ paragraph: null, text: null })}
        >
          {addLabel}
        </button>
      )}
      {notes.isPending ? (
        <Loading>Loading your notes...</Loading>
      ) : notes.isError ? (
        <Status kind="error">Could not load your notes.</Status>
      ) : notes.data.length === 0 ? (
        <Status kind="empty">No notes here yet.</Status>
      ) : (
        <ul className="note-list">
          {notes.data.map((note) => (
            <NoteItem key={note.id} note={note} showWhere={chapterId === undefined} />
          ))}
        </ul>
      )}
    </section>
  );
}
