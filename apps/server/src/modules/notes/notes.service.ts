import type { CreateNoteBody, Note, NotesQuery } from '@inkwell/contract';
import type { AppContext, Viewer } from '../../context.ts';
import { nowIso } from '../../lib/convert.ts';
import { notFound } from '../../lib/errors.ts';
import { getVisibleBook } from '../books/books.service.ts';
import { getVisibleChapter } from '../chapters/chapters.service.ts';
import * as notes from './notes.repository.ts';
import type { NoteRow } from './notes.repository.ts';

function toNote(row: NoteRow): Note {
  const onChapter = row.chapter_id !== null;
  return {
    id: row.id,
    book_id: row.book_id,
    book_title: row.book_title,
    chapter_id: row.chapter_id,
    chapter_title: row.chapter_title ?? null,
    chapter_order: onChapter ? row.chapter_order : null,
    // A note whose chapter was deleted is a note on the book: its paragraph index means nothing now.
    paragraph: onChapter ? row.paragraph : null,
    quote: row.quote,
    body: row.body,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A note of the viewer's. Someone else's note is 404, exactly like one that does not exist. */
async function ownNote(ctx: AppContext, viewer: Viewer, id: number): Promise<NoteRow> {
  const row = await notes.findNote(ctx.db, viewer.id, id);
  if (!row) throw notFound('Note not found');
  return row;
}

export async function getNote(ctx: AppContext, viewer: Viewer, id: number): Promise<Note> {
  return toNote(await ownNote(ctx, viewer, id));
}

export async function listNotes(
  ctx: AppContext,
  viewer: Viewer,
  query: NotesQuery,
): Promise<Note[]> {
  const rows = await notes.listNotes(ctx.db, viewer.id, {
    ...(query.book_id !== undefined && { bookId: query.book_id }),
    ...(query.chapter_id !== undefined && { chapterId: query.chapter_id }),
    limit: query.limit,
    offset: query.offset,
  });
  return rows.map(toNote);
}

/** Notes go on books and chapters the writer may open; a chapter must belong to the book named. */
export async function createNote(
  ctx: AppContext,
  viewer: Viewer,
  input: CreateNoteBody,
): Promise<Note> {
  await getVisibleBook(ctx, viewer, input.book_id);
  const chapterId = input.chapter_id ?? null;
  if (chapterId !== null) {
    const chapter = await getVisibleChapter(ctx, viewer, chapterId);
    if (chapter.book_id !== input.book_id) throw notFound('Chapter not found in this book');
  }
  const quote = input.quote?.trim() || null;
  const id = await notes.insertNote(ctx.db, {
    userId: viewer.id,
    bookId: input.book_id,
    chapterId,
    paragraph: input.paragraph ?? null,
    quote,
    body: input.body,
    now: nowIso(),
  });
  return getNote(ctx, viewer, id);
}

export async function updateNote(
  ctx: AppContext,
  viewer: Viewer,
  id: number,
  body: string,
): Promise<Note> {
  await ownNote(ctx, viewer, id);
  await notes.updateNoteBody(ctx.db, viewer.id, id, body, nowIso());
  return getNote(ctx, viewer, id);
}

export async function deleteNote(ctx: AppContext, viewer: Viewer, id: number): Promise<void> {
  await ownNote(ctx, viewer, id);
  await notes.deleteNote(ctx.db, viewer.id, id);
}
