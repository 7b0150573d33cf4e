import { sql } from 'kysely';
import {
  ownedBy,
  published,
  readingOrder,
  readingOrderInList,
  unpublished,
} from '../../access/visibility.ts';
import { isPostgres, longText, decodeLongText, type DbHandle } from '../../db/kysely.ts';
import type { RevisionKind } from '@inkwell/contract';
import type { Insertable } from 'kysely';
import type { ChaptersTable, Flag } from '../../db/schema.ts';

const SUMMARY_COLUMNS = [
  'chapters.id',
  'chapters.book_id',
  'chapters.title',
  'chapters.chapter_order',
  'chapters.is_published',
  'chapters.word_count',
  'chapters.version',
  'chapters.comments_locked',
  'chapters.created_at',
  'chapters.updated_at',
  'chapters.publish_at',
] as const;

/** A chapter with what visibility rules need to know about its book. */
function chapterSelect(db: DbHandle) {
  return db
    .selectFrom('chapters')
    .innerJoin('books', 'books.id', 'chapters.book_id')
    .select(SUMMARY_COLUMNS)
    .select(longText(db, 'chapters.content').as('content'))
    .select([
      'chapters.note_before',
      'chapters.note_after',
      'chapters.first_published_at',
      'books.author_id',
      'books.is_published as book_is_published',
    ])
    .select(readingOrder().as('reading_order'));
}

type ChapterSelectRow = Awaited<
  ReturnType<ReturnType<typeof chapterSelect>['executeTakeFirstOrThrow']>
>;
export type ChapterRow = Omit<ChapterSelectRow, 'content'> & { content: string };

/** A row of chapterSelect with its content as a string. */
const withText = <T extends ChapterSelectRow>(
  row: T,
): Omit<T, 'content'> & { content: string } => ({
  ...row,
  content: decodeLongText(row.content),
});

export async function findChapter(db: DbHandle, id: number): Promise<ChapterRow | undefined> {
  const row = await chapterSelect(db).where('chapters.id', '=', id).executeTakeFirst();
  return row && withText(row);
}

/**
 * A chapter's likes, and whether `viewerId` is among them (never, for a visitor), as columns of a
 * statement on `chapters`: a read, a save's answer and a like each get them in their own statement.
 */
function likeColumns(viewerId: number | null) {
  return [
    sql<number | string>`(select count(*) from chapter_likes
      where chapter_likes.chapter_id = chapters.id)`.as('likes'),
    viewerId === null
      ? sql<number | string>`0`.as('liked')
      : sql<number | string>`(select count(*) from chapter_likes
          where chapter_likes.chapter_id = chapters.id
            and chapter_likes.user_id = ${viewerId})`.as('liked'),
  ];
}

/** The likes and liked of likeColumns, as a number and a flag on either engine. */
const likesOf = (row: { likes: number | string; liked: number | string }) => ({
  likes: Number(row.likes),
  liked: Number(row.liked) > 0,
});

/**
 * A chapter to read with its likes, and whether `viewerId` (when signed in) liked it: one
 * statement, since a read is the site's most frequent call.
 */
export async function findChapterToRead(db: DbHandle, id: number, viewerId: number | null) {
  const row = await chapterSelect(db)
    .select(likeColumns(viewerId))
    .where('chapters.id', '=', id)
    .executeTakeFirst();
  return row && { ...withText(row), ...likesOf(row) };
}

/** What a write needs to know of a chapter before changing it; not its (long) content. */
export async function findChapterHead(db: DbHandle, id: number) {
  return db
    .selectFrom('chapters')
    .select(['id', 'book_id', 'version', 'is_published'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * A book's chapters in reading order, without their content; drafts only when asked for, and
 * without them each chapter's `reading_order` (what a reader is told its number is).
 */
export async function listChapters(
  db: DbHandle,
  bookId: number,
  options: { includeDrafts: boolean },
) {
  const query = db
    .selectFrom('chapters')
    .select(SUMMARY_COLUMNS)
    .where('chapters.book_id', '=', bookId)
    .orderBy('chapters.chapter_order')
    .orderBy('chapters.id');
  if (options.includeDrafts) return query.execute();
  return query
    .where(published('chapters'))
    .select(readingOrderInList().as('reading_order'))
    .execute();
}

export type ChapterSummaryRow = Awaited<ReturnType<typeof listChapters>>[number];

/**
 * Takes the per-book write lock and answers what chapter writes need of the book, or undefined
 * when it is gone. PostgreSQL locks the book row until commit, so concurrent writers of one book's
 * chapters queue up and chapter_order stays 1..n; SQLite runs one write transaction at a time anyway.
 */
export async function lockBook(db: DbHandle, bookId: number) {
  const query = db
    .selectFrom('books')
    .select(['id', 'title', 'author_id', 'is_published'])
    .where('id', '=', bookId);
  return (isPostgres(db) ? query.forUpdate() : query).executeTakeFirst();
}

/** The book's chapters in reading order: id, order and lower-cased title, for the write rules. */
export async function chapterOutline(db: DbHandle, bookId: number) {
  return db
    .selectFrom('chapters')
    .select(['id', 'chapter_order', 'title'])
    .where('book_id', '=', bookId)
    .orderBy('chapter_order')
    .orderBy('id')
    .execute();
}

/** Moves every chapter at or after `fromOrder` by `delta` places (+1 to open a gap, -1 to close one). */
export async function shiftChapters(
  db: DbHandle,
  bookId: number,
  fromOrder: number,
  delta: 1 | -1,
) {
  await db
    .updateTable('chapters')
    .set((eb) => ({ chapter_order: eb('chapter_order', '+', delta) }))
    .where('book_id', '=', bookId)
    .where('chapter_order', '>=', fromOrder)
    .execute();
}

export async function setChapterOrder(db: DbHandle, id: number, order: number) {
  await db.updateTable('chapters').set({ chapter_order: order }).where('id', '=', id).execute();
}

export interface ContentColumns {
  content: string;
  word_count: number;
}

/** Inserts a draft chapter; `saveKind` is the kind of its first kept version (migration 0017). */
export async function insertChapter(
  db: DbHandle,
  chapter: ContentColumns & {
    bookId: number;
    title: string;
    order: number;
    now: string;
    saveKind: RevisionKind;
  },
) {
  const { id } = await db
    .insertInto('chapters')
    .values({
      book_id: chapter.bookId,
      title: chapter.title,
      content: chapter.content,
      word_count: chapter.word_count,
      chapter_order: chapter.order,
      is_published: 0,
      save_kind: chapter.saveKind,
      created_at: chapter.now,
      updated_at: chapter.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** `save_kind`, when set, keeps a version of the chapter as it becomes (migration 0017). */
export type ChapterChanges = Partial<
  ContentColumns & {
    title: string;
    is_published: Flag;
    comments_locked: Flag;
    publish_at: string | null;
    note_before: string;
    note_after: string;
    save_kind: RevisionKind;
  }
> & {
  updated_at: string;
};

/** Which chapter an update may change: the chapter of this book, if the book is the author's. */
export interface OwnedChapter {
  id: number;
  bookId: number;
  authorId: number;
  /** When given, the update applies only while the chapter is still at this version. */
  version?: number;
  /**
   * When given, the update applies only while the chapter's scheduled publication is due by then
   * (issue 20): the release's claim of the row, so one process alone releases it.
   */
  dueBy?: string;
  /** The update applies only to a draft (a schedule is for the first publication). */
  draftOnly?: boolean;
}

/**
 * Applies changes to a chapter in one statement, and answers the chapter as it now is; a title
 * or content change bumps its version. Ownership and the expected version are conditions of the
 * UPDATE itself (checked under its row lock), so nothing is read first; undefined when nothing
 * matched (a missing chapter, a book that is not the author's, or a stale version). The content
 * is answered from `changes` when it is one, rather than reading 16 KB back.
 */
export async function updateOwnedChapter(
  db: DbHandle,
  chapter: OwnedChapter,
  changes: ChapterChanges,
): Promise<
  | (ChapterSummaryRow & {
      content: string;
      note_before: string;
      note_after: string;
      likes: number;
      liked: boolean;
    })
  | undefined
> {
  const editsText = changes.content !== undefined || changes.title !== undefined;
  const row = await db
    .updateTable('chapters')
    .set((eb) => ({ ...changes, ...(editsText && { version: eb('version', '+', 1) }) }))
    .where('id', '=', chapter.id)
    .where('book_id', '=', chapter.bookId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('books')
          .select('books.id')
          .where('books.id', '=', chapter.bookId)
          .where(ownedBy(chapter.authorId)),
      ),
    )
    .$if(chapter.version !== undefined, (query) => query.where('version', '=', chapter.version!))
    .$if(chapter.dueBy !== undefined, (query) => query.where('publish_at', '<=', chapter.dueBy!))
    .$if(chapter.draftOnly === true, (query) => query.where(unpublished('chapters')))
    .returning(SUMMARY_COLUMNS)
    .returning(['chapters.note_before', 'chapters.note_after'])
    // The answer is the chapter as a read shows it to its author, likes included, still in one
    // statement (an autosave's).
    .returning(likeColumns(chapter.authorId))
    .$if(changes.content === undefined, (query) => query.returning('chapters.content'))
    .executeTakeFirst();
  if (!row) return undefined;
  return { ...row, ...likesOf(row), content: changes.content ?? row.content! };
}

/**
 * Stamps the first publication. Answers true only for the one caller that set it: the condition is
 * re-checked under the row lock, so two racing publishers cannot both see "first".
 */
export async function markFirstPublished(db: DbHandle, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('chapters')
    .set({ first_published_at: now })
    .where('id', '=', id)
    .where('first_published_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * The columns a deleted chapter keeps for a restore (issue 20, "Recently deleted"), named in
 * this one place so a column added to `chapters` later is a choice here, not a failed delete.
 * Not kept: its schedule (`publish_at`: a restored draft would publish itself at once if its
 * time passed meanwhile) and `save_kind` (the restore is not a new version); docs/decisions/0033.
 */
const KEPT_WHEN_DELETED = [
  'id',
  'book_id',
  'title',
  'content',
  'word_count',
  'chapter_order',
  'is_published',
  'first_published_at',
  'version',
  'comments_locked',
  'note_before',
  'note_after',
  'created_at',
  'updated_at',
] as const;

/** Moves a chapter's row to `deleted_chapters`, under its own id: answers it, or undefined. */
export async function moveChapterToDeleted(
  db: DbHandle,
  id: number,
  bookId: number,
  deletedAt: string,
) {
  const row = await db
    .deleteFrom('chapters')
    .where('id', '=', id)
    .where('book_id', '=', bookId)
    .returning(KEPT_WHEN_DELETED)
    .executeTakeFirst();
  if (row)
    await db
      .insertInto('deleted_chapters')
      .values({ ...row, deleted_at: deletedAt })
      .execute();
  return row;
}

/** Takes a deleted chapter's row out of `deleted_chapters`: answers it, or undefined. */
export async function takeDeletedChapter(db: DbHandle, bookId: number, id: number) {
  return db
    .deleteFrom('deleted_chapters')
    .where('id', '=', id)
    .where('book_id', '=', bookId)
    .returning(KEPT_WHEN_DELETED)
    .executeTakeFirst();
}

/** Puts a deleted chapter's row back under its own id (issue 20, "Recently deleted"). */
export async function reinsertChapter(db: DbHandle, row: Insertable<ChaptersTable>) {
  await db.insertInto('chapters').values(row).execute();
}

/**
 * What comments (issue 19) need of a chapter: who may see it, whose book it is, whether comments
 * are locked on it or on its book; not its content.
 */
export async function findChapterForComments(db: DbHandle, id: number) {
  return db
    .selectFrom('chapters')
    .innerJoin('books', 'books.id', 'chapters.book_id')
    .select([
      'chapters.id',
      'chapters.book_id',
      'chapters.title',
      'chapters.is_published',
      'chapters.comments_locked',
      'books.author_id',
      'books.is_published as book_is_published',
      'books.comments_locked as book_comments_locked',
    ])
    .where('chapters.id', '=', id)
    .executeTakeFirst();
}

/** The chapter's content alone (to count its blocks). */
export async function findChapterContent(db: DbHandle, id: number) {
  const row = await db
    .selectFrom('chapters')
    .select('content')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.content;
}

/** The chapter's likes, and whether the viewer is among them (false for a visitor). */
export async function chapterLikes(db: DbHandle, chapterId: number, viewerId: number | null) {
  const row = await db
    .selectFrom('chapters')
    .select(likeColumns(viewerId))
    .where('chapters.id', '=', chapterId)
    .executeTakeFirst();
  return likesOf(row ?? { likes: 0, liked: 0 });
}

/** Adds or removes the user's like of the chapter (a repeat changes nothing). */
export async function setChapterLike(
  db: DbHandle,
  userId: number,
  chapterId: number,
  like: boolean,
  now: string,
) {
  if (like) {
    await db
      .insertInto('chapter_likes')
      .values({ user_id: userId, chapter_id: chapterId, created_at: now })
      .onConflict((oc) => oc.doNothing())
      .execute();
  } else {
    await db
      .deleteFrom('chapter_likes')
      .where('user_id', '=', userId)
      .where('chapter_id', '=', chapterId)
      .execute();
  }
}
