import { sql } from 'kysely';
import { isPostgres, type DbHandle } from '../../db/kysely.ts';

/** A chapter's versions, newest first, without their content: at most `limit`, older than `before`. */
export async function listRevisions(
  db: DbHandle,
  chapterId: number,
  { limit, before }: { limit: number; before?: number },
) {
  let query = db
    .selectFrom('chapter_revisions')
    .select(['id', 'created_at', 'words', 'kind'])
    .where('chapter_id', '=', chapterId);
  if (before !== undefined) query = query.where('id', '<', before);
  return query.orderBy('id', 'desc').limit(limit).execute();
}

export async function findRevision(db: DbHandle, chapterId: number, id: number) {
  return db
    .selectFrom('chapter_revisions')
    .select(['id', 'created_at', 'words', 'kind', 'title'])
    .where('chapter_id', '=', chapterId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** How a chapter's versions are linked, oldest first. */
export async function revisionLinks(db: DbHandle, chapterId: number) {
  return db
    .selectFrom('chapter_revisions')
    .select(['id', 'base_id', 'created_at', 'published'])
    .select((eb) => eb('content', 'is', null).as('packed_already'))
    .where('chapter_id', '=', chapterId)
    .orderBy('id')
    .execute();
}

/**
 * What decoding version `id` needs, in one statement (so a run of the job cannot change the
 * chain between two reads): the versions from the last one at or before it that stands alone
 * (whole, or not packed yet) up to it. A delta's base is always the version kept just before
 * it, so its chain is exactly that run.
 */
export async function revisionChain(db: DbHandle, chapterId: number, id: number) {
  return db
    .selectFrom('chapter_revisions')
    .select(['id', 'base_id', 'content', 'packed'])
    .where('chapter_id', '=', chapterId)
    .where('id', '<=', id)
    .where('id', '>=', (eb) =>
      eb
        .selectFrom('chapter_revisions')
        .select((inner) => inner.fn.max('id').as('start'))
        .where('chapter_id', '=', chapterId)
        .where('id', '<=', id)
        .where('base_id', 'is', null),
    )
    .execute();
}

/** The stored content of a chapter's versions from `fromId` on: as saved, or packed. */
export async function revisionBodiesFrom(db: DbHandle, chapterId: number, fromId: number) {
  return db
    .selectFrom('chapter_revisions')
    .select(['id', 'base_id', 'content', 'packed'])
    .where('chapter_id', '=', chapterId)
    .where('id', '>=', fromId)
    .execute();
}

/** Far from the search indexer's key (a single bigint): 2020 in the high half, the chapter below. */
const COMPACTION_LOCK_SPACE = 2020n << 32n;

/**
 * Gives one compaction at a time a chapter's versions, to the end of the caller's transaction,
 * so two overlapping runs (a lapsed lease) never pack or drop from the same reading. PostgreSQL:
 * an advisory lock (a deleted chapter has no row to lock). SQLite: a write statement takes the
 * database's write lock now, instead of at the first write after the reads.
 */
export async function lockChapterVersions(db: DbHandle, chapterId: number) {
  if (isPostgres(db))
    await sql`select pg_advisory_xact_lock(${String(COMPACTION_LOCK_SPACE + BigInt(chapterId))}::bigint)`.execute(
      db,
    );
  else
    await sql`update chapter_revisions set base_id = base_id where chapter_id = ${chapterId} and 0 = 1`.execute(
      db,
    );
}

/** Stores a version packed (whole when baseId is null, else a delta against it). */
export async function setPacked(db: DbHandle, id: number, packed: Buffer, baseId: number | null) {
  await db
    .updateTable('chapter_revisions')
    .set({ packed, base_id: baseId, content: null })
    .where('id', '=', id)
    .execute();
}

export async function deleteRevisions(db: DbHandle, ids: readonly number[]) {
  // Bounded batches: SQLite limits the variables of one statement.
  for (let i = 0; i < ids.length; i += 500)
    await db
      .deleteFrom('chapter_revisions')
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
}

/**
 * Chapters whose versions the retention rule would thin, or that have versions not yet packed
 * (the partial index of migration 0017 finds those), lowest id first. Past `keepAllAfter` an
 * unpublished version shares its bucket with another: that bucket keeps one of them. A bucket is
 * the first `hourChars` characters of created_at (its hour) from `hourlyAfter` on, else the first
 * `dayChars` (its day): retention.ts's bucketOf, from the same constants.
 */
export async function chaptersWithRevisionWork(
  db: DbHandle,
  cut: { keepAllAfter: string; hourlyAfter: string; hourChars: number; dayChars: number },
): Promise<number[]> {
  const unpacked = await db
    .selectFrom('chapter_revisions')
    .select('chapter_id')
    .distinct()
    .where('content', 'is not', null)
    .execute();
  const bucket = sql`case when created_at >= ${cut.hourlyAfter}
    then substr(created_at, 1, ${cut.hourChars}) else substr(created_at, 1, ${cut.dayChars}) end`;
  const crowded = await db
    .selectFrom('chapter_revisions')
    .select('chapter_id')
    .where('published', '=', 0)
    .where('created_at', '<', cut.keepAllAfter)
    .groupBy(['chapter_id', bucket])
    .having((eb) => eb.fn.countAll(), '>', 1)
    .execute();
  return [...new Set([...unpacked, ...crowded].map((r) => r.chapter_id))].sort((a, b) => a - b);
}

/** A book's deleted chapters, most recently deleted first, without their content. */
export async function listDeletedChapters(db: DbHandle, bookId: number) {
  return db
    .selectFrom('deleted_chapters')
    .select(['id', 'book_id', 'title', 'chapter_order', 'is_published', 'word_count', 'deleted_at'])
    .where('book_id', '=', bookId)
    .orderBy('deleted_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/**
 * Deletes the chapters deleted at or before `before`, then the versions of exactly those; answers
 * how many. The caller runs it in one transaction: a restore that took a chapter back first keeps
 * its versions, and one that comes later finds no chapter to take.
 */
export async function purgeDeletedChapters(db: DbHandle, before: string): Promise<number> {
  const purged = await db
    .deleteFrom('deleted_chapters')
    .where('deleted_at', '<=', before)
    .returning('id')
    .execute();
  const ids = purged.map((row) => row.id);
  // Bounded batches: SQLite limits the variables of one statement.
  for (let i = 0; i < ids.length; i += 500)
    await db
      .deleteFrom('chapter_revisions')
      .where('chapter_id', 'in', ids.slice(i, i + 500))
      .execute();
  return ids.length;
}
