import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';

/**
 * Who may see what, as SQL. The rule of the product: a visitor sees published chapters of
 * published books; an author also sees everything of their own. Every query that filters on
 * publication builds its condition here (lint forbids comparing `is_published` anywhere else), so
 * a new read cannot leak a draft by writing the rule out again slightly wrong.
 *
 * Each helper takes the aliases its query gave the tables ('books', 'chapters' by default) and
 * answers an expression usable in `where`, `on`, `eb.and/or` and raw `sql` templates. The flag is
 * compared with a literal 1, so PostgreSQL can use partial indexes declared `where is_published = 1`.
 */

/** A signed-in viewer's id, or null for a visitor. */
export type ViewerId = number | null;

const column = (alias: string, name: string) => sql.ref(`${alias}.${name}`);

/** The account under `alias` may act (it is not suspended): sign in, keep a session, publish. */
export function activeAccount(alias = 'users'): Expression<SqlBool> {
  return sql<SqlBool>`${column(alias, 'suspended_at')} is null`;
}

/** The book or chapter row under `alias` is published (on its own: see `publicChapter`). */
export function published(alias: string): Expression<SqlBool> {
  return sql<SqlBool>`${column(alias, 'is_published')} = 1`;
}

/** The chapter (or book) row under `alias` is a draft: what a schedule may still publish (issue 20). */
export function unpublished(alias: string): Expression<SqlBool> {
  return sql<SqlBool>`${column(alias, 'is_published')} = 0`;
}

/**
 * `published`, written so that SQLite's planner checks it on each row a join already found
 * instead of choosing an index on the flag to walk (the unary plus hides the column from index
 * selection; PostgreSQL reads it as the plain comparison).
 */
export function publishedRowCheck(alias: string): Expression<SqlBool> {
  return sql<SqlBool>`+${column(alias, 'is_published')} = 1`;
}

/** The book under `books` is the viewer's own. */
export function ownedBy(viewerId: number, books = 'books'): Expression<SqlBool> {
  return sql<SqlBool>`${column(books, 'author_id')} = ${viewerId}`;
}

/** Books the viewer may see: published ones, and their own. */
export function bookVisibleTo(viewerId: ViewerId, books = 'books'): Expression<SqlBool> {
  return viewerId === null
    ? published(books)
    : sql<SqlBool>`(${published(books)} or ${ownedBy(viewerId, books)})`;
}

/** A chapter anyone may read: published, in a published book. */
export function publicChapter(chapters = 'chapters', books = 'books'): Expression<SqlBool> {
  return sql<SqlBool>`(${published(books)} and ${published(chapters)})`;
}

/** Chapters the viewer may open: public ones, and every chapter of their own books. */
export function chapterVisibleTo(
  viewerId: ViewerId,
  chapters = 'chapters',
  books = 'books',
): Expression<SqlBool> {
  return viewerId === null
    ? publicChapter(chapters, books)
    : sql<SqlBool>`(${publicChapter(chapters, books)} or ${ownedBy(viewerId, books)})`;
}

/**
 * The number a reader is given as a published chapter's `chapter_order`: its place among its
 * book's published chapters, from 1. The stored order counts drafts too (the author's workspace
 * numbers every chapter), so its gaps would tell a reader that an unpublished chapter sits
 * between two they can read. `readingOrder` is one chapter's (a count over the book's list
 * index); `readingOrderInList` the same number in a query that already keeps only published
 * chapters, as a window over its rows.
 */
export function readingOrder(chapters = 'chapters'): RawBuilder<number> {
  const order = column(chapters, 'chapter_order');
  return sql<number>`(select cast(count(*) as integer) from chapters as earlier
    where earlier.book_id = ${column(chapters, 'book_id')} and ${published('earlier')}
      and (earlier.chapter_order < ${order}
        or (earlier.chapter_order = ${order} and earlier.id <= ${column(chapters, 'id')})))`;
}

/** The number `viewerId` is told: the stored order in their own books, `readingOrder` in others'. */
export function chapterOrderFor(
  viewerId: ViewerId,
  chapters = 'chapters',
  books = 'books',
): RawBuilder<number> {
  if (viewerId === null) return readingOrder(chapters);
  return sql<number>`(case when ${ownedBy(viewerId, books)} then ${column(chapters, 'chapter_order')}
    else ${readingOrder(chapters)} end)`;
}

export function readingOrderInList(chapters = 'chapters'): RawBuilder<number> {
  return sql<number>`cast(row_number() over (partition by ${column(chapters, 'book_id')}
    order by ${column(chapters, 'chapter_order')}, ${column(chapters, 'id')}) as integer)`;
}

/**
 * Chapters of a book the viewer already may see that they may open: published ones, and for the
 * book's author all of them. (The book's own publication is checked by the caller's book filter.)
 */
export function chapterListedFor(
  viewerId: ViewerId,
  chapters = 'chapters',
  books = 'books',
): Expression<SqlBool> {
  return viewerId === null
    ? published(chapters)
    : sql<SqlBool>`(${published(chapters)} or ${ownedBy(viewerId, books)})`;
}

/**
 * Comments (issue 19) that are shown to the viewer: not written by someone the book's author
 * blocked (hidden from everyone, the author included) and not by someone the viewer muted. The
 * comment row is under `comments`, its book's author is `books.author_id`.
 */
export function commentShownTo(
  viewerId: ViewerId,
  comments = 'comments',
  books = 'books',
): Expression<SqlBool> {
  const notBlocked = sql<SqlBool>`not exists (select 1 from user_blocks
    where user_blocks.blocker_id = ${column(books, 'author_id')}
      and user_blocks.blocked_id = ${column(comments, 'user_id')})`;
  if (viewerId === null) return notBlocked;
  return sql<SqlBool>`(${notBlocked} and not exists (select 1 from user_mutes
    where user_mutes.muter_id = ${viewerId}
      and user_mutes.muted_id = ${column(comments, 'user_id')}))`;
}

/**
 * Comments that count where the viewer sees comments counted (per paragraph in the reader, per
 * chapter in the author's statistics): not deleted, shown to the viewer, and for a reply, in a
 * thread shown too (`threadShownTo`).
 */
export function commentCountedFor(
  viewerId: ViewerId,
  comments = 'comments',
  books = 'books',
): Expression<SqlBool> {
  return sql<SqlBool>`(${column(comments, 'deleted')} = 0
    and ${commentShownTo(viewerId, comments, books)} and ${threadShownTo(viewerId, comments, books)})`;
}

/**
 * Comments whose thread is shown to the viewer: a top-level comment, or a reply whose top-level
 * comment is shown (`commentShownTo`). The list hides a whole thread whose writer is hidden, so
 * its replies are neither listed nor counted for anyone who could not open it.
 */
export function threadShownTo(
  viewerId: ViewerId,
  comments = 'comments',
  books = 'books',
): Expression<SqlBool> {
  const parent = column(comments, 'parent_id');
  return sql<SqlBool>`(${parent} is null or exists (select 1 from comments as shown_threads
    where shown_threads.id = ${parent}
      and ${commentShownTo(viewerId, 'shown_threads', books)}))`;
}
