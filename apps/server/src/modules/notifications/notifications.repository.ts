import { sql } from 'kysely';
import type { DbHandle } from '../../db/kysely.ts';
import type { Flag, NotificationsTable } from '../../db/schema.ts';

export interface NotificationContent {
  type: NotificationsTable['type'];
  message: string;
  book_id: number | null;
  chapter_id: number | null;
  follower: string | null;
  comment_id?: number | null;
  announcement_id?: number | null;
}

/**
 * Gives every follower of the author and every follower of the book one notification, in a
 * single INSERT ... SELECT: the follower ids never travel to the application and back, however
 * many there are. A reader who follows both is selected once (UNION), and one who already has
 * this chapter's (or announcement's) notification is skipped (the unique indexes
 * notifications_chapter_uq and notifications_announcement_uq), so the news arrives once. Users
 * the author blocked get nothing (issue 19: blocked users do not appear in the author's
 * notifications), even if a follow of theirs were left. Answers the users who got a row.
 */
export async function insertForFollowers(
  db: DbHandle,
  followed: { authorId: number; bookId: number },
  content: NotificationContent,
  now: string,
): Promise<number[]> {
  const followers = db
    .selectFrom('follows')
    .select('follower_id as user_id')
    .where('author_id', '=', followed.authorId)
    .union(db.selectFrom('book_follows').select('user_id').where('book_id', '=', followed.bookId));
  const rows = await db
    .insertInto('notifications')
    .columns([
      'user_id',
      'type',
      'message',
      'book_id',
      'chapter_id',
      'follower',
      'announcement_id',
      'is_read',
      'created_at',
    ])
    .expression(
      db
        .selectFrom(followers.as('f'))
        // Explicit casts: PostgreSQL would otherwise read untyped parameters in a SELECT as text.
        .select([
          'f.user_id',
          sql<string>`cast(${content.type} as text)`.as('type'),
          sql<string>`cast(${content.message} as text)`.as('message'),
          sql<number | null>`cast(${content.book_id} as integer)`.as('book_id'),
          sql<number | null>`cast(${content.chapter_id} as integer)`.as('chapter_id'),
          sql<string | null>`cast(${content.follower} as text)`.as('follower'),
          sql<number | null>`cast(${content.announcement_id ?? null} as integer)`.as(
            'announcement_id',
          ),
          sql<Flag>`0`.as('is_read'),
          sql<string>`cast(${now} as text)`.as('created_at'),
        ])
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('user_blocks')
                .select('user_blocks.blocked_id')
                .where('user_blocks.blocker_id', '=', followed.authorId)
                .whereRef('user_blocks.blocked_id', '=', 'f.user_id'),
            ),
          ),
        ),
    )
    .onConflict((oc) => oc.doNothing())
    .returning('user_id')
    .execute();
  return rows.map((row) => row.user_id);
}

/** One notification for one user; answers whether it was stored (false for a duplicate). */
export async function insertForUser(
  db: DbHandle,
  userId: number,
  content: NotificationContent,
  now: string,
): Promise<boolean> {
  const row = await db
    .insertInto('notifications')
    .values({ user_id: userId, ...content, created_at: now })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function listForUser(
  db: DbHandle,
  userId: number,
  page: { limit: number; offset: number },
) {
  return db
    .selectFrom('notifications')
    .select([
      'id',
      'type',
      'message',
      'book_id',
      'chapter_id',
      'follower',
      'comment_id',
      'announcement_id',
      'is_read',
      'created_at',
    ])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countUnread(db: DbHandle, userId: number): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .where('is_read', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Marks the user's unread notifications read: the given ids only, or all of them. */
export async function markRead(
  db: DbHandle,
  userId: number,
  ids?: readonly number[],
): Promise<number> {
  let query = db
    .updateTable('notifications')
    .set({ is_read: 1 })
    .where('user_id', '=', userId)
    .where('is_read', '=', 0);
  if (ids) query = query.where('id', 'in', ids);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Whether the user got a FOLLOW notification from this follower (by username) since `since`:
 * a follow/unfollow loop tells the author once a day, not on every turn.
 */
export async function hasFollowNotificationSince(
  db: DbHandle,
  userId: number,
  follower: string,
  since: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('notifications')
    .select('id')
    .where('user_id', '=', userId)
    // A literal, as in the partial index's predicate (migration 0010): a parameter would keep
    // the planner from using it.
    .where('type', '=', sql.lit('FOLLOW'))
    .where('follower', '=', follower)
    .where('created_at', '>', since)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Of `userIds`, those who blocked or muted `writerId`, and those `writerId` blocked (who hear
 * nothing of the blocker): a comment or follow of the writer's notifies none of them.
 */
export async function silencedBy(
  db: DbHandle,
  writerId: number,
  userIds: readonly number[],
): Promise<number[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .selectFrom('user_blocks')
    .select('blocker_id as id')
    .where('blocked_id', '=', writerId)
    .where('blocker_id', 'in', userIds)
    .union(
      db
        .selectFrom('user_mutes')
        .select('muter_id as id')
        .where('muted_id', '=', writerId)
        .where('muter_id', 'in', userIds),
    )
    .union(
      db
        .selectFrom('user_blocks')
        .select('blocked_id as id')
        .where('blocker_id', '=', writerId)
        .where('blocked_id', 'in', userIds),
    )
    .execute();
  return rows.map((row) => row.id);
}

/** One inbox row for each of `userIds`. */
export async function insertForUsers(
  db: DbHandle,
  userIds: readonly number[],
  content: NotificationContent,
  now: string,
): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .insertInto('notifications')
    .values(userIds.map((userId) => ({ user_id: userId, ...content, created_at: now })))
    .execute();
}

/** Deletes the notices that quote comment `commentId` (COMMENT and REPLY). */
export async function deleteCommentNotices(db: DbHandle, commentId: number): Promise<void> {
  await db.deleteFrom('notifications').where('comment_id', '=', commentId).execute();
}
