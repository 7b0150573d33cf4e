import type { Db } from '../../src/db/kysely.ts';

/**
 * Rows written straight to the database, for tests that need data the API cannot make
 * (backdated timestamps) or that must not depend on another module's endpoints.
 */
export async function insertChapter(
  db: Db,
  bookId: number,
  chapter: { title: string; order: number; published: boolean; updatedAt?: string },
): Promise<number> {
  const at = chapter.updatedAt ?? new Date().toISOString();
  const { id } = await db
    .insertInto('chapters')
    .values({
      book_id: bookId,
      title: chapter.title,
      content: `<p>${chapter.title}</p>`,
      content_text: chapter.title,
      word_count: 1,
      chapter_order: chapter.order,
      is_published: chapter.published ? 1 : 0,
      first_published_at: chapter.published ? at : null,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function insertRead(
  db: Db,
  read: { userId: number; bookId: number; chapterId: number; readAt?: string },
): Promise<void> {
  await db
    .insertInto('read_history')
    .values({
      user_id: read.userId,
      book_id: read.bookId,
      chapter_id: read.chapterId,
      read_at: read.readAt ?? new Date().toISOString(),
    })
    .execute();
}

export const daysAgo = (days: number) =>
  new Date(Date.now() - days * 24 * 60 * 60 * 1000).toISOString();
