import { sql } from 'kysely';
import type { DbHandle } from '../../db/kysely.ts';

/** A chapter's versions, newest first, without their content. */
export async function listRevisions(db: DbHandle, chapterId: number) {
  return db
    .selectFrom('chapter_revisions')
    .select(['id', 'created_at', 'words', 'kind'])
    .where('chapter_id', '=', chapterId)
    .orderBy('id', 'desc')
    .execute();
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

/** The stored content of the given versions: as saved, or packed. */
export async function revisionBodies(db: DbHandle, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('chapter_revisions')
    .select(['id', 'base_id', 'content', 'packed'])
    .where('id', 'in', ids)
    .execute();
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
 * Chapters whose versions the retention rule would thin, or that have versions not yet packed.
 * Past `keepAllAfter` an unpublished version shares its hour (or, before `hourlyAfter`, its day)
 * with another: that hour or day keeps one of them.
 */
export async function chaptersWithRevisionWork(
  db: DbHandle,
  cut: { keepAllAfter: string; hourlyAfter: string },
): Promise<number[]> {
  const unpacked = await db
    .selectFrom('chapter_revisions')
    .select('chapter_id')
    .distinct()
    .where('content', 'is not', null)
    .execute();
  const bucket = sql`case when created_at >= ${cut.hourlyAfter} then substr(created_at, 1, 13)
    else substr(created_at, 1, 10) end`;
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

/** Deletes the chapters deleted at or before `before`, and their versions; answers how many. */
export async function purgeDeletedChapters(db: DbHandle, before: string): Promise<number> {
  await db
    .deleteFrom('chapter_revisions')
    .where('chapter_id', 'in', (eb) =>
      eb.selectFrom('deleted_chapters').select('id').where('deleted_at', '<=', before),
    )
    .execute();
  const result = await db
    .deleteFrom('deleted_chapters')
    .where('deleted_at', '<=', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
