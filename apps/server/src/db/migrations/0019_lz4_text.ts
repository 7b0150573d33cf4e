import { sql, type Kysely } from 'kysely';
import type { Engine } from './columns.ts';

/**
 * PostgreSQL: the long values (chapter HTML and text, kept versions, search documents) are
 * compressed with LZ4 instead of the default pglz (docs/decisions/0037). pglz spends about a
 * millisecond of the server's CPU on each 16 KB autosave's three long values, LZ4 about half
 * that, for values about 20 % larger. Only values written from now
 * on use it: nothing is rewritten, so the migration is instant on any library. A server built
 * without LZ4 support (or older than PostgreSQL 14) keeps pglz. SQLite does not compress.
 */
const LONG_VALUES: ReadonlyArray<readonly [table: string, column: string]> = [
  ['chapters', 'content'],
  ['chapters', 'content_text'],
  ['chapter_revisions', 'content'],
  ['deleted_chapters', 'content'],
  ['deleted_chapters', 'content_text'],
  ['chapter_search', 'content_tsv'],
  ['book_search', 'document'],
  ['book_search', 'document_tsv'],
];

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== 'postgres') return;
  const statements = LONG_VALUES.map(
    ([table, column]) => `alter table ${table} alter column ${column} set compression lz4;`,
  ).join('\n');
  // feature_not_supported: built without LZ4; syntax_error: before PostgreSQL 14.
  await sql`do $$ begin
    ${sql.raw(statements)}
  exception when feature_not_supported or syntax_error then null;
  end $$`.execute(db);
}
