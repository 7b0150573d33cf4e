import { published } from '../../access/visibility.ts';
import type { DbHandle } from '../../db/kysely.ts';

/** A book's chapters with their content, in reading order; drafts only when asked for. */
export async function chapterContents(
  db: DbHandle,
  bookId: number,
  options: { includeDrafts: boolean },
) {
  let query = db
    .selectFrom('chapters')
    .select(['id', 'title', 'content', 'updated_at'])
    .where('book_id', '=', bookId);
  if (!options.includeDrafts) query = query.where(published('chapters'));
  return query.orderBy('chapter_order').orderBy('id').execute();
}
