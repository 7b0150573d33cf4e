import { NOTE_QUOTE_MAX_LENGTH } from '@inkwell/contract/constants';
import { useEffect, useState, type ReactNode } from 'react';
import { placeOfRange } from '../../../lib/paragraphs.ts';
import { NotesPanel, type Quote } from './NotesPanel.tsx';

/** The text selected inside the chapter content, with the paragraph it starts in; null otherwise. */
export function selectedQuote(content: HTMLElement, selection: Selection | null): Quote | null {
  if (!selection || selection.isCollapsed || selection.rangeCount === 0) return null;
  const range = selection.getRangeAt(0);
  if (!content.contains(range.commonAncestorContainer)) return null;
  const place = placeOfRange(content, range);
  const text = selection.toString().trim().slice(0, NOTE_QUOTE_MAX_LENGTH);
  return place && text ? { paragraph: place.paragraph, text } : null;
}

/**
 * The reader's private notes on this chapter: select text, then "Add note" keeps the quote and the
 * paragraph; every note of the chapter is listed below, editable and deletable.
 */
export function ChapterNotes({
  bookId,
  chapterId,
  content,
  selectionActions,
}: {
  bookId: number;
  chapterId: number;
  content: HTMLElement;
  /** More actions on a selection, beside "Add note" (given by the app). */
  selectionActions?(quote: Quote): ReactNode;
}) {
  const [selection, setSelection] = useState<Quote | null>(null);
  useEffect(() => {
    const onChange = () => setSelection(selectedQuote(content, document.getSelection()));
    document.addEventListener('selectionchange', onChange);
    return () => document.removeEventListener('selectionchange', onChange);
  }, [content]);

  return (
    <NotesPanel
      key={chapterId}
      bookId={bookId}
      chapterId={chapterId}
      heading="My notes on this chapter"
      hint="Only you can see your notes. Select text in the chapter to quote it."
      addLabel="Add a note on this chapter"
      selection={selection}
      selectionActions={selectionActions}
    />
  );
}
