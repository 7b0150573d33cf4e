import type { DbHandle } from '../../db/kysely.ts';
import type { UploadsTable } from '../../db/schema.ts';

/**
 * Stores an upload unless one is kept under its name already (the name is the content's hash,
 * so that one holds the same bytes). Answers whether this call stored it.
 */
export async function insertUpload(db: DbHandle, row: UploadsTable): Promise<boolean> {
  const result = await db
    .insertInto('uploads')
    .values(row)
    .onConflict((conflict) => conflict.column('name').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** The upload kept under `name`, bytes and all. */
export async function findUpload(db: DbHandle, name: string) {
  return db
    .selectFrom('uploads')
    .select(['content_type', 'bytes'])
    .where('name', '=', name)
    .executeTakeFirst();
}

/** Which of `names` are stored, without reading their bytes. */
export async function storedUploadNames(
  db: DbHandle,
  names: readonly string[],
): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const rows = await db.selectFrom('uploads').select('name').where('name', 'in', names).execute();
  return new Set(rows.map((row) => row.name));
}
