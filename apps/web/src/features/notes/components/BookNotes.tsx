import { NotesPanel } from './NotesPanel.tsx';

/** The reader's private notes on a book, on its page: notes on the book and on its chapters. */
export function BookNotes({ bookId }: { bookId: number }) {
  return (
    <NotesPanel
      bookId={bookId}
      heading="My notes on this book"
      hint="Only you can see your notes. Notes on chapters are listed here too."
      addLabel="Add a note on this book"
    />
  );
}
