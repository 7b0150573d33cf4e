import { sql, type Kysely } from 'kysely';
import { withId, type Engine } from './columns.ts';

/**
 * The community layer of issue 19 (docs/decisions/0029-community.md): readers follow books,
 * comment on chapters and paragraphs and like chapters and comments; authors lock comments and
 * block users; anyone mutes; operators read reports and suspend accounts.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('book_follows')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('book_follows_pk', ['user_id', 'book_id'])
    .execute();
  // Followers of a book (its count, and who gets its CHAPTER notifications).
  await db.schema
    .createIndex('book_follows_book_idx')
    .on('book_follows')
    .column('book_id')
    .execute();

  // A comment keeps its book so that the author's blocks and the book's lock are one join away.
  // A deleted comment with replies stays as a placeholder (deleted = 1, body ''); one without
  // replies is removed. like_count and reply_count are kept by the service in the write's
  // transaction, so a page of comments never counts rows.
  await withId(db.schema.createTable('comments'), engine)
    .addColumn('chapter_id', 'integer', (c) =>
      c.notNull().references('chapters.id').onDelete('cascade'),
    )
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('parent_id', 'integer', (c) => c.references('comments.id').onDelete('cascade'))
    .addColumn('paragraph', 'integer')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('like_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reply_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('edited_at', 'text')
    .execute();
  // A chapter's top-level comments by id (newest or oldest first, paged by id), and its replies.
  await db.schema
    .createIndex('comments_chapter_idx')
    .on('comments')
    .columns(['chapter_id', 'parent_id', 'id'])
    .execute();
  await db.schema
    .createIndex('comments_parent_idx')
    .on('comments')
    .columns(['parent_id', 'id'])
    .execute();
  await db.schema
    .createIndex('comments_chapter_paragraph_idx')
    .on('comments')
    .columns(['chapter_id', 'paragraph'])
    .execute();
  await db.schema.createIndex('comments_user_idx').on('comments').column('user_id').execute();
  await db.schema.createIndex('comments_book_idx').on('comments').column('book_id').execute();

  await db.schema
    .createTable('comment_likes')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('comment_id', 'integer', (c) =>
      c.notNull().references('comments.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('comment_likes_pk', ['user_id', 'comment_id'])
    .execute();
  await db.schema
    .createIndex('comment_likes_comment_idx')
    .on('comment_likes')
    .column('comment_id')
    .execute();

  await db.schema
    .createTable('chapter_likes')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('chapter_id', 'integer', (c) =>
      c.notNull().references('chapters.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('chapter_likes_pk', ['user_id', 'chapter_id'])
    .execute();
  await db.schema
    .createIndex('chapter_likes_chapter_idx')
    .on('chapter_likes')
    .column('chapter_id')
    .execute();

  await withId(db.schema.createTable('comment_reports'), engine)
    .addColumn('comment_id', 'integer', (c) =>
      c.notNull().references('comments.id').onDelete('cascade'),
    )
    .addColumn('reporter_id', 'integer', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    /** Set when an operator dealt with it (deleted the comment, suspended, or dismissed). */
    .addColumn('resolved_at', 'text')
    .execute();
  await db.schema
    .createIndex('comment_reports_open_idx')
    .on('comment_reports')
    .columns(['resolved_at', 'id'])
    .execute();
  // A deleted comment's reports go with it (the foreign key's check on PostgreSQL finds them here).
  await db.schema
    .createIndex('comment_reports_comment_idx')
    .on('comment_reports')
    .column('comment_id')
    .execute();
  // One open report per reporter and comment, however fast the button is pressed twice.
  await sql`create unique index comment_reports_open_uq on comment_reports (comment_id, reporter_id)
    where resolved_at is null`.execute(db);

  for (const [table, owner, other] of [
    ['user_blocks', 'blocker_id', 'blocked_id'],
    ['user_mutes', 'muter_id', 'muted_id'],
  ] as const) {
    await db.schema
      .createTable(table)
      .addColumn(owner, 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn(other, 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, [owner, other])
      .execute();
    await db.schema.createIndex(`${table}_${other}_idx`).on(table).column(other).execute();
  }

  await db.schema
    .alterTable('books')
    .addColumn('comments_locked', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('chapters')
    .addColumn('comments_locked', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('users').addColumn('suspended_at', 'text').execute();

  // COMMENT and REPLY notifications name their comment.
  await db.schema.alterTable('notifications').addColumn('comment_id', 'integer').execute();
  // The COMMENT batching asks "did this author get a live COMMENT toast for this chapter in the
  // last minute?"; the inbox rows of that type, keyed the way the question is asked.
  await sql`create index notifications_comment_idx on notifications (user_id, chapter_id, created_at)
    where type = 'COMMENT'`.execute(db);
}
