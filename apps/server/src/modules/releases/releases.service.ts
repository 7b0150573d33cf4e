import {
  ANNOUNCEMENTS_LIST_MAX,
  type Announcement,
  type CreateAnnouncementBody,
} from '@inkwell/contract';
import type { AppContext, Viewer } from '../../context.ts';
import { isAuthorOf, isPublicBook } from '../../access/policy.ts';
import { isBlankHtml, sanitizeContent } from '../../html/sanitize.ts';
import { nowIso } from '../../lib/convert.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { toAnnouncement } from '../../presenters/announcement.ts';
import { writeTransaction } from '../../db/kysely.ts';
import type { DomainEvent } from '../../realtime/events.ts';
import { announceBookChanged, getOwnedBook, getVisibleBookAccess } from '../books/books.service.ts';
import { releaseScheduledChapter } from '../chapters/chapters.service.ts';
import { storeNotifications } from '../notifications/notifications.service.ts';
import * as releases from './releases.repository.ts';

/** The most chapters one look of the release job takes; the next look, a second later, goes on. */
const RELEASE_BATCH = 100;

/**
 * Publishes every scheduled chapter that fell due by `now` (issue 20), each through the
 * chapters' own publishing path, which claims its row in the database: run on every process
 * by the periodic job (modules/jobs/schedule.ts), yet each chapter is published, and its
 * followers told, once. At a process's start this releases what fell due while none ran.
 * Answers how many this call released.
 */
export async function releaseDueChapters(ctx: AppContext, now = nowIso()): Promise<number> {
  let released = 0;
  const failures: unknown[] = [];
  for (const due of await releases.dueChapters(ctx.db, now, RELEASE_BATCH)) {
    const author = { id: due.author_id, username: due.author_username };
    const target = { bookId: due.book_id, chapterId: due.chapter_id };
    // One chapter that cannot be released must not hold back the others due with it.
    try {
      if (await releaseScheduledChapter(ctx, author, target, now)) released++;
    } catch (error) {
      failures.push(error);
    }
  }
  // The job logs it, and the next look tries those chapters again.
  if (failures.length) throw new AggregateError(failures, `${failures.length} release(s) failed`);
  return released;
}

/** A book's announcements for whoever may see the book (drafts stay their author's), newest first. */
export async function listAnnouncements(
  ctx: AppContext,
  viewer: Viewer | null,
  bookId: number,
): Promise<Announcement[]> {
  await getVisibleBookAccess(ctx, viewer, bookId);
  return (await releases.listAnnouncements(ctx.db, bookId, ANNOUNCEMENTS_LIST_MAX)).map(
    toAnnouncement,
  );
}

/**
 * Posts an announcement on the viewer's book. In a published book it is news: the followers
 * of the book and of its author hear of it (each once), as of a new chapter, and their inbox rows
 * commit with the announcement (a process ending right after loses none); a draft book's
 * announcement tells no one.
 */
export async function postAnnouncement(
  ctx: AppContext,
  viewer: Viewer,
  bookId: number,
  input: CreateAnnouncementBody,
): Promise<Announcement> {
  const book = await getOwnedBook(ctx, viewer, bookId);
  const body = sanitizeContent(input.body);
  if (isBlankHtml(body)) throw badRequest('body must not be empty', 'body');
  const { row, news } = await writeTransaction(ctx.db, async (trx) => {
    const row = await releases.insertAnnouncement(trx, {
      bookId,
      title: input.title,
      body,
      now: nowIso(),
    });
    if (!isPublicBook(book)) return { row, news: null };
    const news: DomainEvent = {
      type: 'announcement.posted',
      authorId: viewer.id,
      authorUsername: viewer.username,
      bookId,
      bookTitle: book.title,
      announcementId: row.id,
      title: row.title,
    };
    const stored = await storeNotifications({ db: trx }, news);
    return { row, news: { ...news, inboxWritten: stored?.recipients ?? [] } };
  });
  announceBookChanged(ctx, bookId);
  if (news) await ctx.events.publish(news);
  return toAnnouncement(row);
}

/** Deletes an announcement of the viewer's book; anyone else's answers 404, as if it were not there. */
export async function deleteAnnouncement(
  ctx: AppContext,
  viewer: Viewer,
  announcementId: number,
): Promise<void> {
  const found = await releases.findAnnouncement(ctx.db, announcementId);
  if (!found || !isAuthorOf(found, viewer)) throw notFound('Announcement not found');
  await releases.deleteAnnouncement(ctx.db, announcementId);
  announceBookChanged(ctx, found.book_id);
}
