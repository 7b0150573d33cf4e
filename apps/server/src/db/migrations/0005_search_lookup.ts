import { sql, type Kysely } from 'kysely';

type Engine = 'sqlite' | 'postgres';

/**
 * SQLite: which book a chapter belongs to, for search hits. A chapter's table page holds little
 * else than the start of its text, so looking the book up there reads one page per hit; this
 * index holds hundreds of chapters a page (docs/decisions/0009-bounded-search.md). PostgreSQL
 * keeps long texts out of line (TOAST), so its table pages are small already.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine === 'sqlite') {
    await sql`create index chapters_id_book_idx on chapters (id, book_id)`.execute(db);
  }
}
