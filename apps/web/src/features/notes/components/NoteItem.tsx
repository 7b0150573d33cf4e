import type { Note } from '@inkwell/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { useToasts } from '../../../components/toasts.tsx';
import { formatDate } from '../../../lib/format.ts';
import { paths } from '../../../lib/paths.ts';
import { NoteForm } from './NoteForm.tsx';
import { useNoteWrites } from '../api/notes.ts';

/**
 * One private note with Edit and Delete. Quote and body are plain text, rendered as text (never
 * as HTML). `showWhere` adds the book and chapter it belongs to, for lists across books.
 */
export function NoteItem({ note, showWhere = false }: { note: Note; showWhere?: boolean }) {
  const writes = useNoteWrites();
  const { push } = useToasts();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);

  const remove = async () => {
    setDeleting(true);
    try {
      await writes.remove(note.id);
    } catch {
      setDeleting(false);
      push('Could not delete the note.', { type: 'ERROR' });
    }
  };

  return (
    <li className="note" data-note-id={note.id}>
      {showWhere && (
        <p className="note-where">
          <Link to={paths.book(note.book_id)}>{note.book_title}</Link>
          {note.chapter_id !== null && (
            <>
              {' · '}
              <Link
                to={
                  note.paragraph !== null
                    ? paths.chapterAt(note.book_id, note.chapter_id, note.paragraph)
                    : paths.chapter(note.book_id, note.chapter_id)
                }
              >
                {note.chapter_title}
              </Link>
            </>
          )}
        </p>
      )}
      {note.quote && <blockquote className="note-quote">{note.quote}</blockquote>}
      {editing ? (
        <NoteForm
          label="Edit note"
          initial={note.body}
          submitLabel="Save"
          onSubmit={async (body) => {
            await writes.update(note.id, body);
            setEditing(false);
          }}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <>
          <p className="note-body">{note.body}</p>
          <p className="note-meta muted">
            <span>{formatDate(note.updated_at)}</span>
            <button
              type="button"
              className="button button-small button-quiet"
              onClick={() => setEditing(true)}
            >
              Edit
            </button>
            <button
              type="button"
              className="button button-small button-quiet"
              disabled={deleting}
              onClick={() => void remove()}
            >
              Delete
            </button>
          </p>
        </>
      )}
    </li>
  );
}
