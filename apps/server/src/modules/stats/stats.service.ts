import type { BookStats, ChapterStats, FollowerDay, ParagraphDropoff } from '@inkwell/contract';
import { STATS_FOLLOWER_DAYS } from '@inkwell/contract/constants';
import { isAuthorOf } from '../../access/policy.ts';
import type { AppContext, Viewer } from '../../context.ts';
import { writeTransaction, type Db } from '../../db/kysely.ts';
import { countTopLevelBlocks } from '../../html/blocks.ts';
import { nowIso } from '../../lib/convert.ts';
import { notFound } from '../../lib/errors.ts';
import { enoughReaders, shownFor, type Readers } from './privacy.ts';
import * as stats from './stats.repository.ts';
import type { ViewBatch } from './view-counter.ts';

/*
 * Issue 20, "Who keeps reading" (docs/decisions/0034-reader-stats.md).
 *
 * A reader is a signed-in user (not the author) or a visitor's browser session. A reader
 * reached a chapter when their history, their saved progress or (a visitor) a view is at that
 * chapter or a later one: the furthest published chapter they got to counts for every chapter
 * before it. So readers never grow from one chapter to the next, and retention is at most 1.
 * Only published chapters count (the statistics are of what readers can reach).
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The statistics of the viewer's own book; anyone else's book, draft or not, answers 404 as if
 * there were none. With `chapterId`, the drop-off of that published chapter of the book (404 for
 * any other id).
 */
export async function bookStats(
  ctx: Pick<AppContext, 'db'>,
  viewer: Viewer,
  bookId: number,
  chapterId?: number,
  now: number = Date.now(),
): Promise<BookStats> {
  const book = await stats.findStatsBook(ctx.db, bookId);
  if (!book || !isAuthorOf(book, viewer)) throw notFound('Book not found');
  const dropoff =
    chapterId === undefined ? null : await paragraphDropoff(ctx, bookId, book.author_id, chapterId);
  const chapters = await chapterStats(ctx, bookId, book.author_id);
  const first = chapters[0]?.readers ?? { signedIn: 0, sessions: 0 };
  const total = (readers: Readers) => readers.signedIn + readers.sessions;
  return {
    book_id: bookId,
    followers: await followerStats(ctx, bookId, now),
    chapters: chapters.map(({ readers, likes, comments, ...chapter }) => ({
      ...chapter,
      readers: shownFor(total(readers), readers),
      likes: shownFor(likes, readers),
      comments: shownFor(comments, readers),
    })),
    retention: chapters.map((chapter) => ({
      chapter_id: chapter.chapter_id,
      order: chapter.order,
      // A share of two figures: shown only when both stand on enough readers.
      share: enoughReaders(first)
        ? shownFor(
            total(first) === 0
              ? 0
              : Math.round((total(chapter.readers) / total(first)) * 10_000) / 10_000,
            chapter.readers,
          )
        : null,
    })),
    paragraph_dropoff: dropoff,
  };
}

type RawChapterStats = Omit<
  { [K in keyof ChapterStats]: NonNullable<ChapterStats[K]> },
  'readers'
> & { readers: Readers };

/** Each published chapter's readers (of each kind), likes and comments, before the privacy floor. */
async function chapterStats(
  ctx: Pick<AppContext, 'db'>,
  bookId: number,
  authorId: number,
): Promise<RawChapterStats[]> {
  const chapters = await stats.publishedChapters(ctx.db, bookId);
  const signedIn = await stats.signedInReach(ctx.db, bookId, authorId);
  const sessions = await stats.sessionReach(ctx.db, bookId);
  const likes = await stats.likeCounts(ctx.db, bookId);
  const comments = await stats.commentCounts(ctx.db, bookId);
  const reaching = (reach: stats.ReachCount[], order: number) =>
    reach.filter((r) => r.reach >= order).reduce((sum, r) => sum + r.readers, 0);
  return chapters.map((chapter) => ({
    chapter_id: chapter.id,
    order: chapter.chapter_order,
    title: chapter.title,
    readers: {
      signedIn: reaching(signedIn, chapter.chapter_order),
      sessions: reaching(sessions, chapter.chapter_order),
    },
    likes: likes.get(chapter.id) ?? 0,
    comments: comments.get(chapter.id) ?? 0,
  }));
}

/** Followers now, and at the end of each of the last STATS_FOLLOWER_DAYS UTC days (today: now). */
async function followerStats(ctx: Pick<AppContext, 'db'>, bookId: number, now: number) {
  const first = now - (STATS_FOLLOWER_DAYS - 1) * DAY_MS;
  const changes = await stats.followerChanges(ctx.db, bookId, isoDay(first));
  const byDay = new Map(changes.days.map((day) => [day.day, day.delta]));
  const daily: FollowerDay[] = [];
  let count = changes.before;
  for (let day = 0; day < STATS_FOLLOWER_DAYS; day++) {
    const date = isoDay(first + day * DAY_MS);
    count += byDay.get(date) ?? 0;
    daily.push({ date, count });
  }
  return { now: await stats.followerCount(ctx.db, bookId), daily };
}

/**
 * Where readers' saved progress stops in the chapter: readers per paragraph (0-based, as the
 * reader and the comments count them). A position beyond the chapter's end (the text was
 * shortened since) counts at its last paragraph.
 */
async function paragraphDropoff(
  ctx: Pick<AppContext, 'db'>,
  bookId: number,
  authorId: number,
  chapterId: number,
): Promise<ParagraphDropoff> {
  const chapter = await stats.findPublishedChapter(ctx.db, bookId, chapterId);
  if (!chapter) throw notFound('Chapter not found');
  const paragraphs = Math.max(1, countTopLevelBlocks(chapter.content));
  const counts = new Array<number>(paragraphs).fill(0);
  for (const stop of await stats.progressStops(ctx.db, chapterId, authorId)) {
    const at = Math.min(paragraphs - 1, Math.max(0, stop.paragraph));
    counts[at]! += stop.readers;
  }
  return {
    chapter_id: chapterId,
    paragraphs: counts.map((readers, paragraph) => ({
      paragraph,
      readers: shownFor(readers, readers),
    })),
  };
}

/**
 * Notes a visitor's view of a chapter for the next batch. Signed-in readers count through their
 * history and progress instead, so their beacons change nothing. Nothing is looked up here: the
 * batch keeps only chapters a visitor may read (writeViews).
 */
export function countView(
  ctx: Pick<AppContext, 'views'>,
  viewer: Viewer | null,
  chapterId: number,
  session: string,
): void {
  if (viewer === null) ctx.views.add(chapterId, session);
}

/** Writes a batch of views, keeping only those of chapters any visitor may read now. */
export async function writeViews(db: Db, views: readonly ViewBatch[]): Promise<void> {
  const readable = new Set(
    await stats.publicChapterIds(db, [...new Set(views.map((view) => view.chapter_id))]),
  );
  const kept = views.filter((view) => readable.has(view.chapter_id));
  if (kept.length === 0) return;
  await writeTransaction(db, (trx) => stats.insertViews(trx, kept, nowIso()));
}
