import { sql, type Kysely } from 'kysely';
import { withId, type Engine } from './columns.ts';

// Migrations are frozen history: they never import application code, so a later change to the
// app cannot rewrite what an old migration did. The genre list is therefore copied here.
const GENRES = [
  'Fiction',
  'Non-Fiction',
  'Science Fiction',
  'Fantasy',
  'Romance',
  'Mystery',
  'Thriller',
  'Biography',
  'Memoir',
  'Action & Adventure',
  'Horror',
  'Historical Fiction',
  'Literature',
  'Contemporary Fiction',
  'Poetry',
  'Young Adult',
  "Children's",
  'Food & Drink',
  'Art & Photography',
  'Self Help',
  'True Crime',
  'Humor',
  'Religion & Spirituality',
];

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await withId(db.schema.createTable('users'), engine)
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('username_lower', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('last_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('biography', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('avatar', 'text')
    .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('twitter_link', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('facebook_link', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('instagram_link', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('reader_settings', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('sessions'), engine)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

  await withId(db.schema.createTable('books'), engine)
    .addColumn('author_id', 'integer', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('cover', 'text')
    .addColumn('is_published', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('published_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('books_author_idx').on('books').column('author_id').execute();
  await db.schema
    .createIndex('books_published_idx')
    .on('books')
    .columns(['is_published', 'published_at'])
    .execute();

  await withId(db.schema.createTable('genres'), engine)
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .execute();

  await db.schema
    .createTable('book_genres')
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('genre_id', 'integer', (c) =>
      c.notNull().references('genres.id').onDelete('cascade'),
    )
    .addPrimaryKeyConstraint('book_genres_pk', ['book_id', 'genre_id'])
    .execute();
  await db.schema
    .createIndex('book_genres_genre_idx')
    .on('book_genres')
    .column('genre_id')
    .execute();

  await withId(db.schema.createTable('chapters'), engine)
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('content_text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('word_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('chapter_order', 'integer', (c) => c.notNull())
    .addColumn('is_published', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('first_published_at', 'text')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('chapters_book_order_idx')
    .on('chapters')
    .columns(['book_id', 'chapter_order'])
    .execute();

  await withId(db.schema.createTable('read_history'), engine)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('chapter_id', 'integer', (c) =>
      c.notNull().references('chapters.id').onDelete('cascade'),
    )
    .addColumn('read_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('read_history_user_chapter_uq', ['user_id', 'chapter_id'])
    .execute();
  await db.schema
    .createIndex('read_history_user_idx')
    .on('read_history')
    .columns(['user_id', 'read_at'])
    .execute();
  await db.schema
    .createIndex('read_history_book_idx')
    .on('read_history')
    .columns(['book_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('follows')
    .addColumn('follower_id', 'integer', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('author_id', 'integer', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('follows_pk', ['follower_id', 'author_id'])
    .execute();
  await db.schema
    .createIndex('follows_author_idx')
    .on('follows')
    .columns(['author_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('book_search')
    .addColumn('book_id', 'integer', (c) =>
      c.primaryKey().references('books.id').onDelete('cascade'),
    )
    .addColumn('document', 'text', (c) => c.notNull())
    .execute();

  await createSearchIndexes(db, engine);

  for (const [index, name] of GENRES.entries()) {
    await sql`insert into genres (id, name) values (${index + 1}, ${name})`.execute(db);
  }
  if (engine === 'postgres') {
    await sql`select setval(pg_get_serial_sequence('genres', 'id'), (select max(id) from genres))`.execute(
      db,
    );
  }
}

/**
 * Full-text search over two document kinds: one per book (title, summary, author, genres) and
 * one per chapter (its plain text). SQLite uses FTS5 external-content tables kept in step by
 * triggers; PostgreSQL uses generated tsvector columns with GIN indexes.
 */
async function createSearchIndexes(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine === 'postgres') {
    await sql`alter table book_search add column document_tsv tsvector
      generated always as (to_tsvector('english', document)) stored`.execute(db);
    await sql`create index book_search_tsv_idx on book_search using gin (document_tsv)`.execute(db);
    await sql`alter table chapters add column content_tsv tsvector
      generated always as (to_tsvector('english', content_text)) stored`.execute(db);
    await sql`create index chapters_tsv_idx on chapters using gin (content_tsv)`.execute(db);
    return;
  }
  const tokenizer = `tokenize = 'porter unicode61 remove_diacritics 2'`;
  await sql
    .raw(
      `create virtual table book_fts using fts5(document, content='book_search', content_rowid='book_id', ${tokenizer})`,
    )
    .execute(db);
  await sql
    .raw(
      `create virtual table chapter_fts using fts5(content_text, content='chapters', content_rowid='id', ${tokenizer})`,
    )
    .execute(db);
  const triggers = [
    `create trigger book_search_ai after insert on book_search begin
       insert into book_fts(rowid, document) values (new.book_id, new.document); end`,
    `create trigger book_search_ad after delete on book_search begin
       insert into book_fts(book_fts, rowid, document) values ('delete', old.book_id, old.document); end`,
    `create trigger book_search_au after update on book_search begin
       insert into book_fts(book_fts, rowid, document) values ('delete', old.book_id, old.document);
       insert into book_fts(rowid, document) values (new.book_id, new.document); end`,
    `create trigger chapters_ai after insert on chapters begin
       insert into chapter_fts(rowid, content_text) values (new.id, new.content_text); end`,
    `create trigger chapters_ad after delete on chapters begin
       insert into chapter_fts(chapter_fts, rowid, content_text) values ('delete', old.id, old.content_text); end`,
    `create trigger chapters_au after update of content_text on chapters begin
       insert into chapter_fts(chapter_fts, rowid, content_text) values ('delete', old.id, old.content_text);
       insert into chapter_fts(rowid, content_text) values (new.id, new.content_text); end`,
  ];
  for (const trigger of triggers) await sql.raw(trigger).execute(db);
}
