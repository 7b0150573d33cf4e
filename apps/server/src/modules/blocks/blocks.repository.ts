import type { DbHandle } from '../../db/kysely.ts';

/**
 * Blocks and mutes (issue 19) share one shape: an owner puts another user on a list. `kind`
 * names the list; each maps to its table and its two columns.
 */
export type ListKind = 'block' | 'mute';

const TABLES = {
  block: { table: 'user_blocks', owner: 'blocker_id', other: 'blocked_id' },
  mute: { table: 'user_mutes', owner: 'muter_id', other: 'muted_id' },
} as const;

/** Adds `otherId` to the owner's list; a repeat changes nothing. */
export async function insertEntry(
  db: DbHandle,
  kind: ListKind,
  ownerId: number,
  otherId: number,
  now: string,
): Promise<void> {
  const { table, owner, other } = TABLES[kind];
  await db
    .insertInto(table)
    .values({ [owner]: ownerId, [other]: otherId, created_at: now } as never)
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Answers whether there was an entry to remove. */
export async function deleteEntry(
  db: DbHandle,
  kind: ListKind,
  ownerId: number,
  otherId: number,
): Promise<boolean> {
  const { table, owner, other } = TABLES[kind];
  const result = await db
    .deleteFrom(table)
    .where(owner, '=', ownerId)
    .where(other, '=', otherId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function hasEntry(
  db: DbHandle,
  kind: ListKind,
  ownerId: number,
  otherId: number,
): Promise<boolean> {
  const { table, owner, other } = TABLES[kind];
  const row = await db
    .selectFrom(table)
    .select('created_at')
    .where(owner, '=', ownerId)
    .where(other, '=', otherId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Every entry of these owners' lists, as [owner, other] id pairs. */
export async function entriesOf(
  db: DbHandle,
  kind: ListKind,
  ownerIds: readonly number[],
): Promise<Array<[number, number]>> {
  if (ownerIds.length === 0) return [];
  const { table, owner, other } = TABLES[kind];
  const rows = await db
    .selectFrom(table)
    .select([`${owner} as owner_id`, `${other} as other_id`] as [
      'blocker_id as owner_id',
      'blocked_id as other_id',
    ])
    .where(owner as 'blocker_id', 'in', ownerIds)
    .execute();
  return rows.map((row) => [row.owner_id, row.other_id]);
}

/** The users on the owner's list, most recent first, with when they were put there. */
export async function listEntries(db: DbHandle, kind: ListKind, ownerId: number) {
  const { table, owner, other } = TABLES[kind];
  return db
    .selectFrom(table)
    .innerJoin('users', 'users.id', `${table}.${other}` as `user_blocks.blocked_id`)
    .select([
      'users.id',
      'users.username',
      'users.first_name',
      'users.last_name',
      'users.avatar',
      `${table}.created_at as since` as 'user_blocks.created_at as since',
    ])
    .where(`${table}.${owner}` as `user_blocks.blocker_id`, '=', ownerId)
    .orderBy(`${table}.created_at` as 'user_blocks.created_at', 'desc')
    .orderBy('users.id', 'desc')
    .execute();
}
