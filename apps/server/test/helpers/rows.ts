import type { DbHandle } from '../../src/db/kysely.ts';
import { nowIso, toFlag } from '../../src/lib/convert.ts';

/** A chapter as a test writes it: its text is its title unless given. */
interface ChapterFields {
  id?: number;
  title: string;
  text?: string;
  order: number;
  published: boolean;
  updatedAt?: string;
}

function chapterRow(bookId: number, chapter: ChapterFields) {
  const at = chapter.updatedAt ?? nowIso();
  const text = chapter.text ?? chapter.title;
  return {
    ...(chapter.id !== undefined && { id: chapter.id }),
    book_id: bookId,
    title: chapter.title,
    content: `<p>${text}</p>`,
    word_count: text.split(' ').length,
    chapter_order: chapter.order,
    is_published: toFlag(chapter.published),
    first_published_at: chapter.published ? at : null,
    created_at: at,
    updated_at: at,
  };
}

/**
 * Rows written straight to the database, for tests that need data the API cannot make
 * (backdated timestamps, chosen ids) or that must not depend on another module's endpoints.
 */
export async function insertChapter(
  db: DbHandle,
  bookId: number,
  chapter: Omit<ChapterFields, 'id' | 'text'>,
): Promise<number> {
  const { id } = await db
    .insertInto('chapters')
    .values(chapterRow(bookId, chapter))
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/**
 * Published chapters of the given texts, with the given ids where set (an API call each would be
 * slow): search tests place matches far apart in the id space.
 */
export async function insertPublishedChapters(
  db: DbHandle,
  bookId: number,
  rows: { id?: number; text: string }[],
) {
  await db
    .insertInto('chapters')
    .values(
      rows.map((row, i) =>
        chapterRow(bookId, { ...row, title: `Filler ${i + 1}`, order: 100 + i, published: true }),
      ),
    )
    .execute();
}

/** A users row with a username and nothing else set (no password that could sign in). */
export function userRow(username: string, at: string = nowIso()) {
  return {
    username,
    username_lower: username.toLowerCase(),
    password_hash: 'x',
    first_name: '',
    last_name: '',
    biography: '',
    email: '',
    twitter_link: '',
    facebook_link: '',
    instagram_link: '',
    created_at: at,
    updated_at: at,
  };
}

export async function insertRead(
  db: DbHandle,
  read: { userId: number; bookId: number; chapterId: number; readAt?: string },
): Promise<void> {
  await db
    .insertInto('read_history')
    .values({
      user_id: read.userId,
      book_id: read.bookId,
      chapter_id: read.chapterId,
      read_at: read.readAt ?? nowIso(),
    })
    .execute();
}

export const daysAgo = (days: number) =>
  new Date(Date.now() - days * 24 * 60 * 60 * 1000).toISOString();

/** A published book's row, written straight to the database (a library of thousands at once). */
export function publishedBookRow(authorId: number, title: string, at = nowIso()) {
  return {
    author_id: authorId,
    title,
    summary: 'A story',
    cover: null,
    is_published: 1 as const,
    published_at: at,
    created_at: at,
    updated_at: at,
  };
}
