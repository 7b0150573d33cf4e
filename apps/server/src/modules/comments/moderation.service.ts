import type { CommentReport } from '@inkwell/contract';
import type { AppContext, Viewer } from '../../context.ts';
import { nowIso } from '../../lib/convert.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { toComment } from '../../presenters/comment.ts';
import { setSuspended } from '../accounts/accounts.service.ts';
import { profilesByUsernames } from '../authors/authors.service.ts';
import * as comments from './comments.repository.ts';
import { isOperator } from './comments.service.ts';

/**
 * The operators' side of issue 19 (operators: ADMIN_USERNAMES). Everyone else gets 403: the
 * routes are documented in the API, so hiding them behind 404 would hide nothing.
 */
export function assertOperator(ctx: AppContext, viewer: Viewer): void {
  if (!isOperator(ctx, viewer)) throw forbidden('Only operators may do this');
}

/** The most open reports a page lists; the oldest first, so nothing waits forever. */
const REPORTS_PAGE = 200;

export async function listReports(ctx: AppContext, viewer: Viewer): Promise<CommentReport[]> {
  assertOperator(ctx, viewer);
  const rows = await comments.listOpenReports(ctx.db, viewer.id, REPORTS_PAGE);
  return rows.map((row) => ({
    id: row.report_id,
    reason: row.reason,
    created_at: row.reported_at,
    reporter: row.reporter,
    comment: toComment(row),
    book_id: row.book_id,
    book_title: row.book_title,
    chapter_title: row.chapter_title,
    author_username: row.username,
    author_suspended: row.suspended_at !== null,
  }));
}

export async function dismissReport(ctx: AppContext, viewer: Viewer, reportId: number) {
  assertOperator(ctx, viewer);
  if (!(await comments.resolveReport(ctx.db, reportId, nowIso())))
    throw notFound('No open report with this id');
}

/**
 * Suspends (or restores) the account of `username`: it can no longer sign in, its sessions end
 * and its sockets close; the open reports of its comments are resolved. Not oneself.
 */
export async function setUserSuspended(
  ctx: AppContext,
  viewer: Viewer,
  username: string,
  suspended: boolean,
): Promise<void> {
  assertOperator(ctx, viewer);
  const [user] = await profilesByUsernames(ctx.db, [username]);
  if (!user) throw notFound('User not found');
  if (user.id === viewer.id) throw badRequest('You cannot suspend yourself');
  await setSuspended(ctx, user.id, suspended);
  if (suspended) await comments.resolveReportsOfWriter(ctx.db, user.id, nowIso());
}
