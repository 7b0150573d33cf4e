import { sql, type RawBuilder } from 'kysely';
import {
  bookVisibleTo,
  chapterListedFor,
  published,
  publishedRowCheck,
} from '../../access/visibility.ts';
import { isPostgres, type DbHandle } from '../../db/kysely.ts';

/** Whose drafts a query may see: a user id, or null for a visitor (published books only). */
export type Visibility = { viewerId: number | null };

/**
 * Books joined with their author's public names, their genres and the number of chapters the
 * viewer can open: everything a book card shows, in one statement.
 */
function bookSelect(db: DbHandle, visibility: Visibility) {
  return db
    .selectFrom('books')
    .innerJoin('users', 'users.id', 'books.author_id')
    .select([
      'books.id',
      'books.title',
      'books.summary',
      'books.cover',
      'books.is_published',
      'books.author_id',
      'books.published_at',
      'books.created_at',
      'books.updated_at',
      'users.username as author_username',
      'users.first_name as author_first_name',
      'users.last_name as author_last_name',
    ])
    .select((eb) =>
      eb
        .selectFrom('chapters')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('chapters.book_id', '=', 'books.id')
        // The owner counts drafts too; everyone else only what they can open.
        .where(chapterListedFor(visibility.viewerId))
        .as('chapter_count'),
    )
    .select(genreNames(db).as('genres'));
}

/**
 * The book's genre names in the genres' order, as a JSON array: parsed by the driver on
 * PostgreSQL, text on SQLite (fromJsonList reads both). A column rather than a second query
 * per page of books, which cost every list a round trip to the database.
 */
function genreNames(db: DbHandle): RawBuilder<string[] | string> {
  const names = (aggregate: RawBuilder<unknown>) => sql<string[] | string>`(select ${aggregate}
      from book_genres bg join genres g on g.id = bg.genre_id
     where bg.book_id = books.id)`;
  return isPostgres(db)
    ? sql`coalesce(${names(sql`json_agg(g.name order by g.id)`)}, '[]'::json)`
    : names(sql`json_group_array(g.name order by g.id)`);
}

const PUBLIC: Visibility = { viewerId: null };

/** What access rules need of a book: its author and whether it is published (no joins, no counts). */
export async function findBookAccess(db: DbHandle, id: number) {
  return db
    .selectFrom('books')
    .select(['id', 'author_id', 'title', 'is_published', 'published_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The books among `ids` the viewer may see, as cards, in no particular order. */
export async function findVisibleBooksByIds(
  db: DbHandle,
  ids: readonly number[],
  visibility: Visibility,
) {
  if (ids.length === 0) return [];
  return (
    bookSelect(db, visibility)
      .where('books.id', 'in', ids)
      // Checked on each row the ids find, never an index to walk (see `publishedRowCheck`).
      .where(
        visibility.viewerId === null
          ? publishedRowCheck('books')
          : bookVisibleTo(visibility.viewerId),
      )
      .execute()
  );
}

/** A book by id regardless of publication; callers decide visibility (to answer 404 vs 403). */
export async function findBookById(db: DbHandle, id: number, visibility: Visibility) {
  return bookSelect(db, visibility)
    .select(['books.comments_locked', 'books.show_next_release', 'books.schedule_note'])
    .where('books.id', '=', id)
    .executeTakeFirst();
}

/**
 * Published books, newest published first. The page's ids are found first, from the index alone
 * (skipping `offset` entries there is cheap); names and chapter counts are then worked out for
 * those ten rows only, not for every row the offset skips.
 */
export async function listPublishedBooks(db: DbHandle, page: { limit: number; offset: number }) {
  const pageIds = db
    .selectFrom('books')
    .select('id')
    .where(published('books'))
    .orderBy('published_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset);
  return bookSelect(db, PUBLIC)
    .where('books.id', 'in', pageIds)
    .orderBy('books.published_at', 'desc')
    .orderBy('books.id', 'desc')
    .execute();
}

export async function listBooksByAuthor(db: DbHandle, authorId: number, visibility: Visibility) {
  return bookSelect(db, visibility)
    .where('books.author_id', '=', authorId)
    .where(bookVisibleTo(visibility.viewerId))
    .orderBy('books.created_at', 'desc')
    .orderBy('books.id', 'desc')
    .execute();
}

export async function listPublishedBooksInGenre(db: DbHandle, genreName: string) {
  return bookSelect(db, PUBLIC)
    .innerJoin('book_genres', 'book_genres.book_id', 'books.id')
    .innerJoin('genres', 'genres.id', 'book_genres.genre_id')
    .where((eb) => eb(eb.fn('lower', ['genres.name']), '=', genreName.toLowerCase()))
    .where(published('books'))
    .orderBy('books.published_at', 'desc')
    .orderBy('books.id', 'desc')
    .limit(200)
    .execute();
}

export async function authorHasTitle(
  db: DbHandle,
  authorId: number,
  title: string,
  exceptBookId?: number,
) {
  let query = db
    .selectFrom('books')
    .select('id')
    .where('author_id', '=', authorId)
    .where((eb) => eb(eb.fn('lower', ['title']), '=', title.toLowerCase()));
  if (exceptBookId !== undefined) query = query.where('id', '!=', exceptBookId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function insertBook(
  db: DbHandle,
  book: { authorId: number; title: string; now: string },
) {
  const { id } = await db
    .insertInto('books')
    .values({
      author_id: book.authorId,
      title: book.title,
      summary: '',
      is_published: 0,
      created_at: book.now,
      updated_at: book.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateBook(
  db: DbHandle,
  id: number,
  changes: Partial<{
    title: string;
    summary: string;
    is_published: 0 | 1;
    comments_locked: 0 | 1;
    show_next_release: 0 | 1;
    schedule_note: string;
    published_at: string;
    cover: string;
    updated_at: string;
  }>,
) {
  await db.updateTable('books').set(changes).where('id', '=', id).execute();
}

/** When the book's next chapter is scheduled to come out (issue 20); null when none is. */
export async function nextReleaseAt(db: DbHandle, bookId: number): Promise<string | null> {
  const row = await db
    .selectFrom('chapters')
    .select((eb) => eb.fn.min('publish_at').as('next'))
    .where('book_id', '=', bookId)
    .where('publish_at', 'is not', null)
    .executeTakeFirst();
  return row?.next ?? null;
}

export async function deleteBook(db: DbHandle, id: number) {
  await db.deleteFrom('books').where('id', '=', id).execute();
}

/**
 * Published books ranked by distinct readers in read history. The count is kept on the book by
 * triggers (migration 0004), so this reads `limit` index entries instead of the whole history.
 */
export async function popularBooks(db: DbHandle, limit: number) {
  return db
    .selectFrom('books')
    .select(['id as book_id', 'title', 'cover', 'reader_count as readers'])
    .where(published('books'))
    .where('reader_count', '>', 0)
    .orderBy('reader_count', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
