import type { Comment } from '@inkwell/contract';
import type { Selectable } from 'kysely';
import type { CommentsTable, UsersTable } from '../db/schema.ts';
import { fromFlag } from '../lib/convert.ts';

/** A comment row with its writer and its book's author, and the viewer's like (1/0). */
export type CommentRow = Pick<
  Selectable<CommentsTable>,
  | 'id'
  | 'chapter_id'
  | 'parent_id'
  | 'paragraph'
  | 'body'
  | 'deleted'
  | 'like_count'
  | 'reply_count'
  | 'created_at'
  | 'edited_at'
  | 'user_id'
> &
  Pick<Selectable<UsersTable>, 'username' | 'first_name' | 'last_name' | 'avatar'> & {
    author_id: number;
    liked: number | string | boolean;
  };

/**
 * A comment as the API shows it. A deleted placeholder shows no text, no writer and no likes,
 * whatever its row still holds.
 */
export function toComment(row: CommentRow): Comment {
  const deleted = fromFlag(row.deleted);
  return {
    id: row.id,
    chapter_id: row.chapter_id,
    parent_id: row.parent_id,
    paragraph: row.paragraph,
    body: deleted ? '' : row.body,
    user: deleted
      ? null
      : {
          id: row.user_id,
          username: row.username,
          first_name: row.first_name,
          last_name: row.last_name,
          avatar: row.avatar,
        },
    created_at: row.created_at,
    edited_at: deleted ? null : row.edited_at,
    deleted,
    likes: deleted ? 0 : row.like_count,
    liked: !deleted && Number(row.liked) === 1,
    by_author: !deleted && row.user_id === row.author_id,
    reply_count: row.reply_count,
  };
}
