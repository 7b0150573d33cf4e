import { sql, type Kysely } from 'kysely';
import { withId, type Engine } from './columns.ts';

/**
 * Discovery (issue 21, docs/decisions/0031-discovery.md): a book's rating, status, tags and
 * warnings; the numbers lists sort and filter by, kept on the book by triggers as migration 0004
 * keeps reader_count (words of its published chapters, followers, when a chapter last came out);
 * a reader's saved exclusions. A book's tags are part of its search document, so changing them
 * queues the book for the search indexer (migration 0011).
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .alterTable('books')
    .addColumn('rating', 'text', (c) => c.notNull().defaultTo('general'))
    .execute();
  await db.schema
    .alterTable('books')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('ongoing'))
    .execute();
  await db.schema
    .alterTable('books')
    .addColumn('words', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('books')
    .addColumn('follower_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // The newest first publication of one of its chapters: what "recently updated" sorts by. Empty
  // when none, which sorts last on both engines (a null would sort first on PostgreSQL).
  await db.schema
    .alterTable('books')
    .addColumn('chapter_published_at', 'text', (c) => c.notNull().defaultTo(''))
    .execute();

  await sql`update books set
    words = (select coalesce(sum(word_count), 0) from chapters
              where chapters.book_id = books.id and chapters.is_published = 1),
    follower_count = (select count(*) from book_follows where book_follows.book_id = books.id),
    chapter_published_at = coalesce((select max(first_published_at) from chapters
              where chapters.book_id = books.id and chapters.is_published = 1), '')`.execute(db);

  // The first spelling used on the site is kept for display; `key` (lower case) makes it one tag.
  await withId(db.schema.createTable('tags'), engine)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .execute();
  await db.schema
    .createTable('book_tags')
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('tag_id', 'integer', (c) => c.notNull().references('tags.id').onDelete('cascade'))
    /** The author's order. */
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('book_tags_pk', ['book_id', 'tag_id'])
    .execute();
  // "Books with this tag" (filters, autocomplete counts).
  await db.schema
    .createIndex('book_tags_tag_idx')
    .on('book_tags')
    .columns(['tag_id', 'book_id'])
    .execute();
  await db.schema
    .createTable('book_warnings')
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('warning', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('book_warnings_pk', ['book_id', 'warning'])
    .execute();
  await db.schema
    .createIndex('book_warnings_warning_idx')
    .on('book_warnings')
    .columns(['warning', 'book_id'])
    .execute();

  // One row per reader who saved exclusions; each list a JSON array. Muted authors by id, so a
  // rename keeps them muted.
  await db.schema
    .createTable('saved_filters')
    .addColumn('user_id', 'integer', (c) =>
      c.primaryKey().references('users.id').onDelete('cascade'),
    )
    .addColumn('exclude_tags', 'text', (c) => c.notNull())
    .addColumn('exclude_warnings', 'text', (c) => c.notNull())
    .addColumn('exclude_ratings', 'text', (c) => c.notNull())
    .addColumn('muted_author_ids', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  // The sorts of a list of published books, each read from an index newest/largest first.
  for (const [name, column] of [
    ['books_updated_sort_idx', 'chapter_published_at'],
    ['books_words_sort_idx', 'words'],
    ['books_followers_sort_idx', 'follower_count'],
  ] as const)
    await sql`create index ${sql.raw(name)} on books (is_published, ${sql.ref(column)}, id)`.execute(
      db,
    );
  await sql`create index books_rating_idx on books (rating, is_published)`.execute(db);

  if (engine === 'postgres') await postgres(db);
  else await sqlite(db);
}

async function sqlite(db: Kysely<unknown>): Promise<void> {
  const triggers = [
    // Words of published chapters, as a difference, so two saves never lose one another's.
    `create trigger chapters_words_ai after insert on chapters when new.is_published = 1 begin
       update books set words = words + new.word_count,
         chapter_published_at = max(chapter_published_at, coalesce(new.first_published_at, new.updated_at))
        where id = new.book_id; end`,
    `create trigger chapters_words_ad after delete on chapters when old.is_published = 1 begin
       update books set words = words - old.word_count where id = old.book_id; end`,
    `create trigger chapters_words_au after update of word_count, is_published on chapters
       when old.is_published = 1 or new.is_published = 1 begin
       update books set words = words
           - (case when old.is_published = 1 then old.word_count else 0 end)
           + (case when new.is_published = 1 then new.word_count else 0 end)
        where id = new.book_id; end`,
    `create trigger chapters_published_au after update of is_published on chapters
       when old.is_published = 0 and new.is_published = 1 begin
       update books set chapter_published_at =
           max(chapter_published_at, coalesce(new.first_published_at, new.updated_at))
        where id = new.book_id; end`,
    `create trigger book_follows_count_ai after insert on book_follows begin
       update books set follower_count = follower_count + 1 where id = new.book_id; end`,
    `create trigger book_follows_count_ad after delete on book_follows begin
       update books set follower_count = follower_count - 1 where id = old.book_id; end`,
    `create trigger book_tags_document_insert after insert on book_tags begin
       insert into search_pending_books (book_id) values (new.book_id); end`,
    `create trigger book_tags_document_delete after delete on book_tags begin
       insert into search_pending_books (book_id) values (old.book_id); end`,
  ];
  for (const trigger of triggers) await sql.raw(trigger).execute(db);
}

async function postgres(db: Kysely<unknown>): Promise<void> {
  await sql`create function inkwell_book_words() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        if new.is_published = 1 then
          update books set words = words + new.word_count,
            chapter_published_at = greatest(chapter_published_at, coalesce(new.first_published_at, new.updated_at))
           where id = new.book_id;
        end if;
      elsif tg_op = 'DELETE' then
        if old.is_published = 1 then
          update books set words = words - old.word_count where id = old.book_id;
        end if;
      elsif old.is_published = 1 or new.is_published = 1 then
        update books set words = words
            - (case when old.is_published = 1 then old.word_count else 0 end)
            + (case when new.is_published = 1 then new.word_count else 0 end),
          chapter_published_at = case when old.is_published = 0 and new.is_published = 1
            then greatest(chapter_published_at, coalesce(new.first_published_at, new.updated_at))
            else chapter_published_at end
         where id = new.book_id;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger chapters_words after insert or delete or update of word_count, is_published
    on chapters for each row execute function inkwell_book_words()`.execute(db);
  await sql`create function inkwell_book_follower_count() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        update books set follower_count = follower_count + 1 where id = new.book_id;
      else
        update books set follower_count = follower_count - 1 where id = old.book_id;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger book_follows_count after insert or delete on book_follows
    for each row execute function inkwell_book_follower_count()`.execute(db);
  // inkwell_book_document_changed (migration 0011) queues new.book_id / old.book_id.
  await sql`create trigger book_tags_document after insert or delete on book_tags
    for each row execute function inkwell_book_document_changed()`.execute(db);
}
