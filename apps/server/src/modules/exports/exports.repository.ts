import { published } from '../../access/visibility.ts';
import type { DbHandle } from '../../db/kysely.ts';

/** The chapters of a book an export includes: published ones, and drafts only when asked for. */
function exportedChapters(db: DbHandle, bookId: number, options: { includeDrafts: boolean }) {
  const query = db.selectFrom('chapters').where('book_id', '=', bookId);
  return options.includeDrafts ? query : query.where(published('chapters'));
}

/** A book's exported chapters in reading order, without their text. */
export async function chapterList(
  db: DbHandle,
  bookId: number,
  options: { includeDrafts: boolean },
) {
  return exportedChapters(db, bookId, options)
    .select(['id', 'title', 'updated_at'])
    .orderBy('chapter_order')
    .orderBy('id')
    .execute();
}

/**
 * The text of some of those chapters, by id. The condition on drafts is applied again: a chapter
 * unpublished since the list was read must not reach a reader.
 */
export async function chapterTexts(
  db: DbHandle,
  bookId: number,
  ids: readonly number[],
  options: { includeDrafts: boolean },
) {
  if (ids.length === 0) return [];
  return exportedChapters(db, bookId, options)
    .select(['id', 'content'])
    .where('id', 'in', ids)
    .execute();
}
