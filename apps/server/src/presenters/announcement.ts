import type { Announcement } from '@inkwell/contract';
import type { Selectable } from 'kysely';
import type { AnnouncementsTable } from '../db/schema.ts';

/** An announcement's columns that its answers show. */
export type AnnouncementRow = Pick<
  Selectable<AnnouncementsTable>,
  'id' | 'title' | 'body' | 'created_at'
>;

export function toAnnouncement(row: AnnouncementRow): Announcement {
  return { id: row.id, title: row.title, body: row.body, created_at: row.created_at };
}
