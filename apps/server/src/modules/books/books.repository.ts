import type { BookRating, BookSort, BookStatus } from '@inkwell/contract';
import { HIDDEN_COUNT_MAX, type ContentWarningId } from '@inkwell/contract/constants';
import { tagKey } from '@inkwell/contract/tags';
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import {
  excludedBy,
  hiddenAmong,
  listCondition,
  NO_EXCLUSIONS,
  NO_FILTER,
  requestCondition,
  sortColumn,
  type Exclusions,
  type ListFilter,
} from '../../access/book-filters.ts';
import {
  bookVisibleTo,
  chapterListedFor,
  published,
  publishedRowCheck,
  unpublished,
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
      'books.rating',
      'books.status',
      'books.words',
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
    .select(genreNames(db).as('genres'))
    .select(tagNames(db).as('tags'))
    .select(warningIds(db).as('warnings'));
}

/**
 * A JSON array of `item` over the rows of `from` (a correlated subquery), on either engine:
 * parsed by the driver on PostgreSQL, text on SQLite (fromJsonList reads both). A column rather
 * than a second query per page of books, which cost every list a round trip to the database.
 */
function jsonList(
  db: DbHandle,
  from: RawBuilder<unknown>,
  item: RawBuilder<unknown>,
): RawBuilder<string[] | string> {
  return isPostgres(db)
    ? sql`coalesce((select json_agg(${item}) ${from}), '[]'::json)`
    : sql`(select json_group_array(${item}) ${from})`;
}

/** The book's genre names in the genres' order. */
function genreNames(db: DbHandle) {
  return jsonList(
    db,
    sql`from book_genres bg join genres g on g.id = bg.genre_id where bg.book_id = books.id`,
    sql`g.name order by g.id`,
  );
}

/** The book's tags in their display spelling, in the author's order (issue 21). */
function tagNames(db: DbHandle) {
  return jsonList(
    db,
    sql`from book_tags bt join tags t on t.id = bt.tag_id where bt.book_id = books.id`,
    sql`t.name order by bt.position`,
  );
}

/** The book's warning ids (the presenter puts them in the fixed list's order). */
function warningIds(db: DbHandle) {
  return jsonList(
    db,
    sql`from book_warnings bw where bw.book_id = books.id`,
    sql`bw.warning order by bw.warning`,
  );
}

/**
 * A page of published books meeting `where` and the list's filter, in `sort`'s order. The
 * page's ids are found first, from the sort's index (skipping `offset` entries there is cheap);
 * names and counts are then worked out for those rows only, not for every row the offset skips.
 */
async function pageOfPublishedBooks(
  db: DbHandle,
  where: Expression<SqlBool>[],
  list: ListFilter,
  sort: BookSort,
  page: { limit: number; offset: number },
) {
  const pageIds = db
    .selectFrom('books')
    .select('books.id')
    .where(published('books'))
    .where(listCondition(list))
    .$call((q) => where.reduce((acc, condition) => acc.where(condition), q))
    .orderBy(sortColumn(sort), 'desc')
    .orderBy('books.id', 'desc')
    .limit(page.limit)
    .offset(page.offset);
  return bookSelect(db, PUBLIC)
    .where('books.id', 'in', pageIds)
    .orderBy(sortColumn(sort), 'desc')
    .orderBy('books.id', 'desc')
    .execute();
}

/**
 * How many published books meeting `where` and the request's filters the saved exclusions took
 * out of the list (all its pages), up to HIDDEN_COUNT_MAX.
 */
export async function countHiddenBooks(
  db: DbHandle,
  where: Expression<SqlBool>[],
  list: ListFilter,
): Promise<number> {
  const hidden = db
    .selectFrom('books')
    .select('books.id')
    .where(published('books'))
    .where(hiddenAmong(list))
    .$call((q) => where.reduce((acc, condition) => acc.where(condition), q))
    .limit(HIDDEN_COUNT_MAX);
  const row = await db
    .selectFrom(hidden.as('h'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The hidden count of a capped list (recent, a genre page, popular): how many of the `top` books
 * the list would show without the saved exclusions (its request's filters only, in `sort`'s
 * order) the exclusions removed. Books below the cap were never going to be shown, so "show
 * anyway" would not bring them back; counting them would tell a reader hiding one rating that a
 * thousand books are hidden above six covers.
 */
export async function countHiddenInTop(
  db: DbHandle,
  where: Expression<SqlBool>[],
  list: ListFilter,
  sort: BookSort,
  top: number,
): Promise<number> {
  const topIds = db
    .selectFrom('books')
    .select('books.id')
    .where(published('books'))
    .where(requestCondition(list))
    .$call((q) => where.reduce((acc, condition) => acc.where(condition), q))
    .orderBy(sortColumn(sort), 'desc')
    .orderBy('books.id', 'desc')
    .limit(top);
  const row = await db
    .selectFrom('books')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('books.id', 'in', topIds)
    .where(excludedBy(list.exclusions))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The condition of an author's published books, or of a genre's, for a list or its count. */
export const byAuthor = (authorId: number) => sql<SqlBool>`books.author_id = ${authorId}`;
export const withReaders = sql<SqlBool>`books.reader_count > 0`;

const PUBLIC: Visibility = { viewerId: null };

/** What access rules need of a book: its author and whether it is published (no joins, no counts). */
export async function findBookAccess(db: DbHandle, id: number) {
  return db
    .selectFrom('books')
    .select(['id', 'author_id', 'title', 'is_published', 'published_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * The books among `ids` the viewer may see, as cards, in no particular order; each says whether
 * `exclusions` remove it, so that a list and its hidden count come from one query.
 */
export async function findVisibleBooksByIds(
  db: DbHandle,
  ids: readonly number[],
  visibility: Visibility,
  exclusions: Exclusions = NO_EXCLUSIONS,
) {
  if (ids.length === 0) return [];
  return (
    bookSelect(db, visibility)
      .select(sql<SqlBool>`${excludedBy(exclusions)}`.as('excluded'))
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

/** Published books meeting the list's filter, in `sort`'s order (the spec's: newest published). */
export async function listPublishedBooks(
  db: DbHandle,
  page: { limit: number; offset: number },
  list: ListFilter = NO_FILTER,
  sort: BookSort = 'new',
) {
  return pageOfPublishedBooks(db, [], list, sort, page);
}

/** An author's books that `visibility` may see, meeting a reader's list filter, newest first. */
export async function listBooksByAuthor(
  db: DbHandle,
  authorId: number,
  visibility: Visibility,
  list: ListFilter = NO_FILTER,
) {
  return bookSelect(db, visibility)
    .where('books.author_id', '=', authorId)
    .where(bookVisibleTo(visibility.viewerId))
    .where(listCondition(list))
    .orderBy('books.created_at', 'desc')
    .orderBy('books.id', 'desc')
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
    rating: BookRating;
    status: BookStatus;
  }>,
): Promise<boolean> {
  const result = await db.updateTable('books').set(changes).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
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

/**
 * Whether the book is still only what an import made of it, untouched by its author: unpublished,
 * its details as made (`updated_at` still `created_at`: every edit of the book's details, cover
 * or chapter order sets it), every chapter as the import wrote it (`save_kind` 'import' and never
 * updated since: every save of a chapter, of its text, notes or schedule, sets its `updated_at`),
 * and nothing else of the author's on it: no genre, deleted chapter, announcement or private note.
 *
 * On PostgreSQL, locks the book's row and its chapters' until the caller's transaction ends: a
 * chapter's save takes no book lock (one statement, chapters.service), so it either committed
 * before this read or waits, and then finds no chapter, instead of being answered 200 and
 * deleted with the book.
 */
export async function isUntouchedImport(db: DbHandle, bookId: number): Promise<boolean> {
  const query = db
    .selectFrom('books')
    .select('id')
    .where('id', '=', bookId)
    .where(unpublished('books'))
    .whereRef('updated_at', '=', 'created_at');
  const book = await (isPostgres(db) ? query.forUpdate() : query).executeTakeFirst();
  if (!book) return false;
  if (isPostgres(db))
    await db
      .selectFrom('chapters')
      .select('id')
      .where('book_id', '=', bookId)
      .forUpdate()
      .execute();
  const touched = await db
    .selectFrom('chapters')
    .select('id')
    .where('book_id', '=', bookId)
    .where((eb) =>
      eb.or([
        eb('save_kind', 'is', null),
        eb('save_kind', '!=', 'import'),
        eb('updated_at', '!=', eb.ref('created_at')),
      ]),
    )
    .unionAll(db.selectFrom('book_genres').select('genre_id as id').where('book_id', '=', bookId))
    .unionAll(db.selectFrom('deleted_chapters').select('id').where('book_id', '=', bookId))
    .unionAll(db.selectFrom('announcements').select('id').where('book_id', '=', bookId))
    .unionAll(db.selectFrom('notes').select('id').where('book_id', '=', bookId))
    .limit(1)
    .executeTakeFirst();
  return touched === undefined;
}

/**
 * Deletes a book (its rows go by cascade) and the tags no other book uses (see setBookTags).
 * Call it in a transaction, which holds the tags' lock to its end.
 */
export async function deleteBook(db: DbHandle, id: number) {
  // The book's row before the tags' lock, the order a save of the book's details takes them in
  // (its UPDATE, then setBookTags): the two never wait for each other in a circle.
  if (isPostgres(db))
    await db.selectFrom('books').select('id').where('id', '=', id).forUpdate().execute();
  await lockTags(db);
  const tagIds = await tagIdsOf(db, id);
  await db.deleteFrom('books').where('id', '=', id).execute();
  await deleteUnusedTags(db, tagIds);
}

/**
 * Published books ranked by distinct readers in read history. The count is kept on the book by
 * triggers (migration 0004), so this reads `limit` index entries instead of the whole history.
 */
export async function popularBooks(db: DbHandle, limit: number, list: ListFilter = NO_FILTER) {
  return db
    .selectFrom('books')
    .select(['id as book_id', 'title', 'cover', 'reader_count as readers'])
    .where(published('books'))
    .where(listCondition(list))
    .where('reader_count', '>', 0)
    .orderBy('reader_count', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * Replaces a book's tags (issue 21), in the author's order. A tag new to the site is created in
 * this spelling; one the site knows under any case keeps its first spelling, as long as some
 * book uses it: the tags this book was the last to use are deleted first, so an author who alone
 * used a misspelling corrects it by sending the new spelling (decision 0031).
 */
export async function setBookTags(db: DbHandle, bookId: number, tags: readonly string[]) {
  await lockTags(db);
  const previous = await tagIdsOf(db, bookId);
  await db.deleteFrom('book_tags').where('book_id', '=', bookId).execute();
  await deleteUnusedTags(db, previous);
  if (tags.length === 0) return;
  const keys = tags.map(tagKey);
  await db
    .insertInto('tags')
    .values(tags.map((name, i) => ({ name, key: keys[i]! })))
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const found = await db
    .selectFrom('tags')
    .select(['id', 'key'])
    .where('key', 'in', keys)
    .execute();
  const idByKey = new Map(found.map((t) => [t.key, t.id]));
  await db
    .insertInto('book_tags')
    .values(keys.map((key, position) => ({ book_id: bookId, tag_id: idByKey.get(key)!, position })))
    .execute();
}

async function tagIdsOf(db: DbHandle, bookId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('book_tags')
    .select('tag_id')
    .where('book_id', '=', bookId)
    .execute();
  return rows.map((r) => r.tag_id);
}

/** Any fixed number: the key of the advisory lock that gives one change of tags at a time the turn. */
const TAGS_LOCK = 7_246_002;

/**
 * Gives one transaction at a time the site's tags, to its end (PostgreSQL; SQLite's writes take
 * turns already). Without it two books saved at once could each delete a tag the other was about
 * to use, or lock shared tags in opposite orders and deadlock. Books change their tags rarely, so
 * taking turns costs nothing that shows.
 */
async function lockTags(db: DbHandle): Promise<void> {
  if (isPostgres(db)) await sql`select pg_advisory_xact_lock(${TAGS_LOCK})`.execute(db);
}

/**
 * Deletes those of `tagIds` no book uses any more, so that the spelling kept for display is one
 * some book uses. The caller holds the tags' lock (lockTags).
 */
async function deleteUnusedTags(db: DbHandle, tagIds: readonly number[]): Promise<void> {
  if (tagIds.length === 0) return;
  await db
    .deleteFrom('tags')
    .where('id', 'in', tagIds)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('book_tags')
            .select('book_tags.tag_id')
            .whereRef('book_tags.tag_id', '=', 'tags.id'),
        ),
      ),
    )
    .execute();
}

/** Replaces a book's content warnings (issue 21). */
export async function setBookWarnings(
  db: DbHandle,
  bookId: number,
  warnings: readonly ContentWarningId[],
) {
  await db.deleteFrom('book_warnings').where('book_id', '=', bookId).execute();
  if (warnings.length === 0) return;
  await db
    .insertInto('book_warnings')
    .values([...new Set(warnings)].map((warning) => ({ book_id: bookId, warning })))
    .execute();
}
