import { z } from 'zod';
import { Id, Timestamp } from './common.ts';
import { NOTE_BODY_MAX_LENGTH, NOTE_QUOTE_MAX_LENGTH } from './constants.ts';

/**
 * A private note: on a book (chapter_id null) or on a paragraph of a chapter, with the quoted
 * text kept as it was selected. Bodies and quotes are plain text; clients render them as text.
 */
export const Note = z
  .object({
    id: z.number(),
    book_id: z.number(),
    book_title: z.string(),
    chapter_id: z.number().nullable(),
    chapter_title: z.string().nullable(),
    chapter_order: z.number().nullable(),
    /** Index of the paragraph in the chapter's content (0-based); null for a note on the whole book or chapter. */
    paragraph: z.number().nullable(),
    quote: z.string().nullable(),
    body: z.string(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Note' });
export type Note = z.infer<typeof Note>;

export const NotesResponse = z.object({ notes: z.array(Note) }).meta({ id: 'NotesResponse' });

/**
 * GET /api/my/notes. With book_id or chapter_id: in reading order (book notes first, then by
 * chapter and paragraph). Without: most recently changed first.
 */
export const NotesQuery = z.object({
  book_id: Id.optional(),
  chapter_id: Id.optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(500),
  offset: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
});
export type NotesQuery = z.infer<typeof NotesQuery>;

const NoteBodyText = z.string().trim().min(1, 'body must not be empty').max(NOTE_BODY_MAX_LENGTH);

/** POST /api/my/notes. paragraph and quote need a chapter_id. */
export const CreateNoteBody = z
  .object({
    book_id: Id,
    chapter_id: Id.nullish(),
    paragraph: z.number().int().min(0).max(1_000_000).nullish(),
    quote: z.string().max(NOTE_QUOTE_MAX_LENGTH).nullish(),
    body: NoteBodyText,
  })
  .refine((b) => b.chapter_id != null || (b.paragraph == null && !b.quote), {
    message: 'paragraph and quote need a chapter_id',
  });
export type CreateNoteBody = z.infer<typeof CreateNoteBody>;

/** PUT /api/my/notes/{id}: the note's text; where it is attached does not change. */
export const UpdateNoteBody = z.object({ body: NoteBodyText });
export type UpdateNoteBody = z.infer<typeof UpdateNoteBody>;
