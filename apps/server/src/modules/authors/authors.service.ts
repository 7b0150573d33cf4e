import {
  type BookFilter,
  DEFAULT_READER_SETTINGS,
  parseId,
  UpdateReaderSettingsBody,
  type AuthorProfile,
  type ReaderSettings,
  type RecentChapter,
  type UpdateAuthorBody,
} from '@inkwell/contract';
import type { AppContext, Viewer } from '../../context.ts';
import type { DbHandle } from '../../db/kysely.ts';
import { nowIso } from '../../lib/convert.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import { toAuthorProfile } from '../../presenters/user.ts';
import {
  accountOf,
  presentAccount,
  confirmPasswordChange,
  refuseOperatorRename,
  refuseReservedUsername,
  sessionsEnded,
  usernameTakenError,
} from '../accounts/accounts.service.ts';
import type { DeviceOwner } from '../accounts/known-devices.ts';
import { hashPassword } from '../accounts/passwords.ts';
import { countHiddenBooksOf, listAuthorBooks } from '../books/books.service.ts';
import { listFilterFor } from '../discovery/discovery.service.ts';
import * as authors from './authors.repository.ts';
import type { ProfileRow, UserChanges } from './authors.repository.ts';

/**
 * Resolves an author reference: an id in its one spelling (contract ids.ts), else a username
 * (case-insensitive). An all-digit reference that names no id is still tried as a username, since
 * usernames may be all digits; `016` or `0x10` is only ever a username, never author 16.
 */
export async function findAuthor(db: DbHandle, ref: string | number): Promise<ProfileRow> {
  const id = parseId(String(ref));
  const row =
    (id !== undefined ? await authors.findProfileById(db, id) : undefined) ??
    (typeof ref === 'string' ? await authors.findProfileByUsername(db, ref) : undefined);
  if (!row) throw notFound('Author not found');
  return row;
}

function inOrder<T>(
  rows: readonly ProfileRow[],
  keys: readonly T[],
  keyOf: (row: ProfileRow) => T,
): AuthorProfile[] {
  const byKey = new Map(rows.map((row) => [keyOf(row), row]));
  return keys.flatMap((key) => byKey.get(key) ?? []).map(toAuthorProfile);
}

/** Public profiles of these usernames (any case), in the order given; unknown names are left out. */
export async function profilesByUsernames(
  db: DbHandle,
  usernames: readonly string[],
): Promise<AuthorProfile[]> {
  const wanted = usernames.map((username) => username.toLowerCase());
  const rows = await authors.listProfilesByUsernames(db, wanted);
  return inOrder(rows, wanted, (row) => row.username.toLowerCase());
}

/** Public profiles of these users, in the order given; unknown ids are left out. */
export async function profilesByIds(
  db: DbHandle,
  ids: readonly number[],
): Promise<AuthorProfile[]> {
  return inOrder(await authors.listProfilesByIds(db, ids), ids, (row) => row.id);
}

export async function getAuthor(ctx: AppContext, ref: string): Promise<AuthorProfile> {
  return toAuthorProfile(await findAuthor(ctx.db, ref));
}

export async function listAuthors(ctx: AppContext, page: { limit: number; offset: number }) {
  return (await authors.listProfiles(ctx.db, page)).map(toAuthorProfile);
}

/**
 * The author's recent chapters, less those of the books the reader's saved exclusions hide;
 * `hidden` counts those books, as the author's book list beside it does (on the first page).
 */
export async function listRecentChapters(
  ctx: AppContext,
  viewer: Viewer | null,
  ref: string,
  request: { limit: number; offset: number } & Pick<BookFilter, 'filters'>,
): Promise<{ chapters: RecentChapter[]; hidden: number }> {
  const author = await findAuthor(ctx.db, ref);
  const list = await listFilterFor(ctx, viewer, { filters: request.filters });
  const chapters = await authors.listRecentChapters(ctx.db, author.id, request, list);
  const hidden = request.offset > 0 ? 0 : await countHiddenBooksOf(ctx, list, author.id);
  return { chapters, hidden };
}

export async function listPublishedBooksOf(
  ctx: AppContext,
  viewer: Viewer | null,
  ref: string,
  filters: BookFilter['filters'],
) {
  const author = await findAuthor(ctx.db, ref);
  return listAuthorBooks(ctx, viewer, author.id, filters);
}

/** The columns a profile update writes; null or absent fields are left as they are. */
function profileChanges(input: UpdateAuthorBody, passwordHash: string | undefined): UserChanges {
  const changes: UserChanges = { updated_at: nowIso() };
  if (input.username != null) {
    changes.username = input.username;
    changes.username_lower = input.username.toLowerCase();
  }
  if (passwordHash !== undefined) changes.password_hash = passwordHash;
  // Plain text, as the spec's client sends it and every client shows it (never as HTML), like
  // a book's summary: only the space around it goes, so a blank one is no biography.
  if (input.biography != null) changes.biography = input.biography.trim();
  if (input.first_name != null) changes.first_name = input.first_name;
  if (input.last_name != null) changes.last_name = input.last_name;
  if (input.email != null) changes.email = input.email;
  if (input.twitter_link != null) changes.twitter_link = input.twitter_link;
  if (input.facebook_link != null) changes.facebook_link = input.facebook_link;
  if (input.instagram_link != null) changes.instagram_link = input.instagram_link;
  return changes;
}

/** Tells every process that an author's public profile changed (the answer cache listens). */
function announceAuthorChanged(ctx: AppContext, authorId: number): void {
  void ctx.events.publish({ type: 'author.changed', authorId });
}

/**
 * Updates the viewer's own profile. A new password ends the viewer's other sessions; a change of
 * username or names reaches their books' search documents through the search queue (0011).
 * Answers the account, and the user whose password changed (null when it did not).
 * `device`: the browser's known-device cookie, if any (its current-password check is counted
 * under it rather than the username, as its logins are).
 */
export async function updateAuthor(
  ctx: AppContext,
  viewer: Viewer,
  ref: string,
  input: UpdateAuthorBody,
  device?: string,
) {
  const author = await findAuthor(ctx.db, ref);
  if (author.id !== viewer.id) throw forbidden('You may only change your own profile');

  if (input.username != null && input.username.toLowerCase() !== author.username.toLowerCase()) {
    refuseReservedUsername(input.username);
    refuseOperatorRename(ctx, author.username, input.username);
  }
  // Whoever holds a session may not lock the owner out: a new password needs the current one,
  // or a fresh sign-in.
  if (input.password) await confirmPasswordChange(ctx, viewer, input.current_password, device);
  // Hashing is deliberately slow; do it before the transaction, not while holding it.
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  const changes = profileChanges(input, passwordHash);

  const usernameTaken = () =>
    changes.username !== undefined &&
    authors.usernameTakenByOther(ctx.db, changes.username, viewer.id);
  let endedSessions: number[] = [];
  try {
    await ctx.db.transaction().execute(async (trx) => {
      if (
        changes.username !== undefined &&
        (await authors.usernameTakenByOther(trx, changes.username, viewer.id))
      ) {
        throw usernameTakenError();
      }
      await authors.updateUser(trx, viewer.id, changes);
      if (passwordHash !== undefined)
        endedSessions = await authors.deleteOtherSessions(trx, viewer.id, viewer.sessionId);
    });
  } catch (error) {
    // Two users racing for one name: the unique index decides, and the loser hears 409.
    if (!(error instanceof AppError) && (await usernameTaken())) {
      throw usernameTakenError();
    }
    throw error;
  }
  await sessionsEnded(ctx, endedSessions);
  announceAuthorChanged(ctx, viewer.id);
  const user = await accountOf(ctx, viewer);
  // A new password retired this browser's known-device cookie too: the route gives it a new one.
  const newPasswordOf: DeviceOwner | null = passwordHash
    ? { id: user.id, password_hash: user.password_hash }
    : null;
  return { account: presentAccount(ctx, user), newPasswordOf };
}

export async function setAvatar(ctx: AppContext, viewer: Viewer, href: string) {
  await authors.updateUser(ctx.db, viewer.id, { avatar: href, updated_at: nowIso() });
  announceAuthorChanged(ctx, viewer.id);
}

/** Stored settings over the defaults; anything unreadable in storage falls back to the defaults. */
function readSettings(stored: string | null): ReaderSettings {
  if (!stored) return { ...DEFAULT_READER_SETTINGS };
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    return { ...DEFAULT_READER_SETTINGS };
  }
  const valid = UpdateReaderSettingsBody.safeParse(parsed);
  return { ...DEFAULT_READER_SETTINGS, ...(valid.success ? valid.data : {}) };
}

export async function getReaderSettings(ctx: AppContext, viewer: Viewer): Promise<ReaderSettings> {
  return readSettings(await authors.findReaderSettings(ctx.db, viewer.id));
}

/** Merges the given fields into the viewer's settings; fields left out keep their value. */
export async function updateReaderSettings(
  ctx: AppContext,
  viewer: Viewer,
  input: UpdateReaderSettingsBody,
): Promise<ReaderSettings> {
  return ctx.db.transaction().execute(async (trx) => {
    const settings = {
      ...readSettings(await authors.findReaderSettings(trx, viewer.id)),
      ...input,
    };
    await authors.updateUser(trx, viewer.id, { reader_settings: JSON.stringify(settings) });
    return settings;
  });
}
