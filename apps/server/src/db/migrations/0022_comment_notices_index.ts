import { sql, type Kysely } from 'kysely';

/**
 * A deleted comment takes its COMMENT and REPLY notices with it (their message quotes its text):
 * the notices of one comment, found without reading every notification.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index notifications_comment_id_idx on notifications (comment_id)
    where comment_id is not null`.execute(db);
}
