import crypto from 'node:crypto';
import {
  FEED_MAX_ENTRIES,
  type Announcement,
  type FeedTokenCreated,
  type FeedTokenStatus,
} from '@inkwell/contract';
import type { AppContext, Viewer } from '../../context.ts';
import { htmlToText, textOfSanitizedStart } from '../../html/sanitize.ts';
import { nowIso } from '../../lib/convert.ts';
import { notFound } from '../../lib/errors.ts';
import { findAuthor } from '../authors/authors.service.ts';
import { getVisibleBook } from '../books/books.service.ts';
import { listAnnouncements } from '../releases/releases.service.ts';
import { savedExclusions } from '../discovery/discovery.service.ts';
import { renderAtom, type AtomEntry, type AtomPerson } from './atom.ts';
import * as feeds from './feeds.repository.ts';
import type { FeedChapterRow } from './feeds.repository.ts';

/** Absolute addresses of this site: feeds must link with full URLs. `root` includes BASE_PATH. */
export interface Site {
  root: string;
}

const SUMMARY_LENGTH = 280;

type Names = { username: string; first_name: string; last_name: string };

/** The spec's display rule: first and last name, or the username when both are empty. */
function displayName(who: Names): string {
  return `${who.first_name} ${who.last_name}`.trim() || who.username;
}

function personOf(site: Site, who: Names): AtomPerson {
  return {
    name: displayName(who),
    uri: `${site.root}/authors/${encodeURIComponent(who.username)}`,
  };
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= SUMMARY_LENGTH ? flat : `${flat.slice(0, SUMMARY_LENGTH - 1).trimEnd()}…`;
}

function toEntry(
  site: Site,
  row: FeedChapterRow,
  titled: 'chapter' | 'book and chapter',
): AtomEntry {
  return {
    id: `urn:inkwell:chapter:${row.id}`,
    title: titled === 'chapter' ? row.title : `${row.book_title}: ${row.title}`,
    // News is the first publication; later edits do not make a chapter new again.
    updated: row.published_at,
    published: row.published_at,
    link: `${site.root}/books/${row.book_id}/chapters/${row.id}`,
    author: personOf(site, {
      username: row.author_username,
      first_name: row.author_first_name,
      last_name: row.author_last_name,
    }),
    summary: excerpt(textOfSanitizedStart(row.content_start)),
    category: row.book_title,
  };
}

/** An announcement of the book (issue 20), as an entry of the book's feed. */
function announcementEntry(
  site: Site,
  book: { id: number; author: AtomPerson },
  announcement: Announcement,
): AtomEntry {
  return {
    id: `urn:inkwell:announcement:${announcement.id}`,
    title: `Announcement: ${announcement.title}`,
    updated: announcement.created_at,
    published: announcement.created_at,
    link: `${site.root}/books/${book.id}#announcement-${announcement.id}`,
    author: book.author,
    summary: excerpt(htmlToText(announcement.body)),
  };
}

const newest = (entries: AtomEntry[], fallback: string) => entries[0]?.updated ?? fallback;

/**
 * New chapters and announcements of a published book, newest first. A draft book has no feed,
 * not even for its author.
 */
export async function bookFeed(ctx: AppContext, site: Site, bookId: number): Promise<string> {
  const book = await getVisibleBook(ctx, null, bookId);
  const author = personOf(site, {
    username: book.author_username,
    first_name: book.author_first_name,
    last_name: book.author_last_name,
  });
  const [chapterRows, announcements] = await Promise.all([
    feeds.chaptersOfBook(ctx.db, bookId),
    listAnnouncements(ctx, null, bookId),
  ]);
  const entries = [
    ...chapterRows.map((r) => toEntry(site, r, 'chapter')),
    ...announcements.map((a) => announcementEntry(site, { id: book.id, author }, a)),
  ]
    // ISO-8601 UTC text sorts as time does.
    .sort((a, b) => (a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : 0))
    .slice(0, FEED_MAX_ENTRIES);
  return renderAtom({
    id: `urn:inkwell:book:${book.id}`,
    title: book.title,
    ...(book.summary && { subtitle: book.summary }),
    updated: newest(entries, book.published_at ?? book.updated_at),
    selfLink: `${site.root}/api/books/${book.id}/feed.atom`,
    alternateLink: `${site.root}/books/${book.id}`,
    author,
    entries,
  });
}

/** New chapters across an author's published books; the author is named by id or username. */
export async function authorFeed(ctx: AppContext, site: Site, ref: string): Promise<string> {
  const author = await findAuthor(ctx.db, ref);
  const entries = (await feeds.chaptersOfAuthor(ctx.db, author.id)).map((r) =>
    toEntry(site, r, 'book and chapter'),
  );
  const name = displayName(author);
  return renderAtom({
    id: `urn:inkwell:author:${author.id}`,
    title: `${name} on Inkwell`,
    ...(author.biography && { subtitle: author.biography }),
    updated: newest(entries, nowIso()),
    selfLink: `${site.root}/api/authors/${encodeURIComponent(author.username)}/feed.atom`,
    alternateLink: `${site.root}/authors/${encodeURIComponent(author.username)}`,
    author: personOf(site, author),
    entries,
  });
}

const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/**
 * The private feed of everything the token's owner follows, less the books their saved exclusions
 * remove (issue 21): a feed reader has no toggle to show them. A revoked or unknown token is 404.
 */
export async function readerFeed(ctx: AppContext, site: Site, token: string): Promise<string> {
  const owner = await feeds.findFeedOwner(ctx.db, hashToken(token));
  if (!owner) throw notFound('Feed not found');
  const exclusions = await savedExclusions(ctx, owner.id);
  const entries = (await feeds.chaptersFollowedBy(ctx.db, owner.id, exclusions)).map((r) =>
    toEntry(site, r, 'book and chapter'),
  );
  return renderAtom({
    id: `urn:inkwell:reader:${owner.id}:following`,
    title: `New chapters for ${displayName(owner)}`,
    updated: newest(entries, nowIso()),
    selfLink: `${site.root}/api/feeds/${token}.atom`,
    alternateLink: `${site.root}/following`,
    entries,
  });
}

/** Makes a new secret feed address; any previous one stops working. Only its hash is kept. */
export async function rotateFeedToken(
  ctx: AppContext,
  site: Site,
  viewer: Viewer,
): Promise<FeedTokenCreated> {
  const token = crypto.randomBytes(32).toString('base64url');
  const now = nowIso();
  await feeds.replaceFeedToken(ctx.db, viewer.id, hashToken(token), now);
  return { url: `${site.root}/api/feeds/${token}.atom`, created_at: now };
}

export async function feedTokenStatus(ctx: AppContext, viewer: Viewer): Promise<FeedTokenStatus> {
  const row = await feeds.findFeedToken(ctx.db, viewer.id);
  return { active: row !== undefined, created_at: row?.created_at ?? null };
}

export async function revokeFeedToken(ctx: AppContext, viewer: Viewer): Promise<void> {
  await feeds.deleteFeedToken(ctx.db, viewer.id);
}
