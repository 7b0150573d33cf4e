import { useQuery } from '@tanstack/react-query';
import { Loading, Status } from '../../../components/Status.tsx';
import { notesQuery } from '../api/notes.ts';
import { NoteItem } from './NoteItem.tsx';
import '../notes.css';

/** Every private note of the signed-in reader, most recently changed first, for My Library. */
export function MyNotes() {
  const notes = useQuery(notesQuery());
  return (
    <section id="my-notes" className="my-notes" aria-labelledby="my-notes-title">
      <h2 id="my-notes-title">My notes</h2>
      {notes.isPending ? (
        <Loading>Loading your notes...</Loading>
      ) : notes.isError ? (
        <Status kind="error">Could not load your notes.</Status>
      ) : notes.data.length === 0 ? (
        <Status kind="empty">No notes yet. Select text while reading to add one.</Status>
      ) : (
        <ul className="note-list">
          {notes.data.map((note) => (
            <NoteItem key={note.id} note={note} showWhere />
          ))}
        </ul>
      )}
    </section>
  );
}
