import { sql } from 'kysely';
import { createDb, isPostgres, type Db } from '../../../src/db/kysely.ts';

/** Rows that point at something that is gone: each query counts one kind of orphan. */
const ORPHANS: Record<string, string> = {
  'sessions without a user':
    'select count(*) as n from sessions s where not exists (select 1 from users u where u.id = s.user_id)',
  'books without an author':
    'select count(*) as n from books b where not exists (select 1 from users u where u.id = b.author_id)',
  'chapters without a book':
    'select count(*) as n from chapters c where not exists (select 1 from books b where b.id = c.book_id)',
  'book genres without a book or genre':
    'select count(*) as n from book_genres g where not exists (select 1 from books b where b.id = g.book_id) or not exists (select 1 from genres x where x.id = g.genre_id)',
  'history without a user, book or chapter':
    'select count(*) as n from read_history h where not exists (select 1 from users u where u.id = h.user_id) or not exists (select 1 from books b where b.id = h.book_id) or not exists (select 1 from chapters c where c.id = h.chapter_id)',
  'history naming a chapter of another book':
    'select count(*) as n from read_history h join chapters c on c.id = h.chapter_id where c.book_id <> h.book_id',
  'follows without a follower or author':
    'select count(*) as n from follows f where not exists (select 1 from users u where u.id = f.follower_id) or not exists (select 1 from users u where u.id = f.author_id)',
  'search documents without a book':
    'select count(*) as n from book_search s where not exists (select 1 from books b where b.id = s.book_id)',
  'notifications without a recipient':
    'select count(*) as n from notifications x where not exists (select 1 from users u where u.id = x.user_id)',
  'library entries without a reader or book':
    'select count(*) as n from library_entries l where not exists (select 1 from users u where u.id = l.user_id) or not exists (select 1 from books b where b.id = l.book_id)',
  'reading positions without a reader, book or chapter of that book':
    'select count(*) as n from reading_positions p where not exists (select 1 from users u where u.id = p.user_id) or not exists (select 1 from chapters c where c.id = p.chapter_id and c.book_id = p.book_id)',
  'notes without a reader, book or chapter of that book':
    'select count(*) as n from notes x where not exists (select 1 from users u where u.id = x.user_id) or not exists (select 1 from books b where b.id = x.book_id) or (x.chapter_id is not null and not exists (select 1 from chapters c where c.id = x.chapter_id and c.book_id = x.book_id))',
  'imports without a user or with a vanished book':
    'select count(*) as n from import_jobs j where not exists (select 1 from users u where u.id = j.user_id) or (j.book_id is not null and not exists (select 1 from books b where b.id = j.book_id))',
  'feed tokens without a reader':
    'select count(*) as n from feed_tokens f where not exists (select 1 from users u where u.id = f.user_id)',
};

export interface IntegrityReport {
  /** SQLite: PRAGMA integrity_check and foreign_key_check; PostgreSQL: 'ok' (the server checks pages itself). */
  engineCheck: string;
  /** Kinds of orphan rows found, with their counts; empty when there are none. */
  orphans: Record<string, number>;
  /** Books whose chapter orders are not exactly 1..n: book id -> the orders found. */
  orderGaps: Record<number, number[]>;
}

/** Opens the database at `url` and checks it: engine integrity, orphan rows, chapter order gaps. */
export async function checkIntegrity(url: string): Promise<IntegrityReport> {
  const db = createDb(url);
  try {
    return {
      engineCheck: await engineCheck(db),
      orphans: await orphans(db),
      orderGaps: await orderGaps(db),
    };
  } finally {
    await db.destroy();
  }
}

async function engineCheck(db: Db): Promise<string> {
  if (isPostgres(db)) return 'ok';
  const integrity = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
  const foreignKeys = await sql<Record<string, unknown>>`pragma foreign_key_check`.execute(db);
  const problems = integrity.rows.map((row) => row.integrity_check).filter((line) => line !== 'ok');
  if (foreignKeys.rows.length > 0)
    problems.push(`foreign keys: ${JSON.stringify(foreignKeys.rows)}`);
  return problems.length === 0 ? 'ok' : problems.join('; ');
}

async function orphans(db: Db): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for (const [what, query] of Object.entries(ORPHANS)) {
    const { rows } = await sql<{ n: number | string }>`${sql.raw(query)}`.execute(db);
    const n = Number(rows[0]?.n ?? 0);
    if (n > 0) found[what] = n;
  }
  return found;
}

async function orderGaps(db: Db): Promise<Record<number, number[]>> {
  const rows = await db
    .selectFrom('chapters')
    .select(['book_id', 'chapter_order'])
    .orderBy('book_id')
    .orderBy('chapter_order')
    .execute();
  const byBook = new Map<number, number[]>();
  for (const row of rows)
    byBook.set(row.book_id, [...(byBook.get(row.book_id) ?? []), row.chapter_order]);
  const gaps: Record<number, number[]> = {};
  for (const [bookId, orders] of byBook) {
    if (orders.some((order, index) => order !== index + 1)) gaps[bookId] = orders;
  }
  return gaps;
}

/** What a clean database reports. */
export const CLEAN: IntegrityReport = { engineCheck: 'ok', orphans: {}, orderGaps: {} };
