import { DELETED_CHAPTER_DAYS } from '@inkwell/contract';
import type { Db, DbHandle } from '../../db/kysely.ts';
import { applyDelta, packVersion, unpackDelta, unpackWhole } from './revision-codec.ts';
import { retentionCutoffs, versionsToKeep } from './retention.ts';
import * as revisions from './revisions.repository.ts';

/**
 * Reading versions, and the scheduled job that packs and thins versions and purges old deleted
 * chapters (docs/decisions/0033-revisions.md). Versions themselves are written by a trigger on
 * `chapters` (migration 0017) in the save's own statement, when the save names the kind of
 * version it keeps (`save_kind`); a deleted chapter's row is moved by the chapters repository.
 */

type Body = Awaited<ReturnType<typeof revisions.revisionBodies>>[number];

/** Decodes versions from their stored bodies: each one's content, following delta chains. */
function decoder(bodies: readonly Body[]) {
  const byId = new Map(bodies.map((b) => [b.id, b]));
  const decoded = new Map<number, string>();
  // Forward through the deltas from `text`, remembering each version on the way.
  const replay = (chain: Body[], text: string) => {
    for (const link of chain.reverse()) decoded.set(link.id, (text = decodeOne(link, text)));
    return text;
  };
  const contentOf = (id: number): string => {
    // Walk back to a version decoded already or one that stands alone.
    const chain: Body[] = [];
    for (let body = byId.get(id); ; body = byId.get(body.base_id!)) {
      if (!body) throw new Error(`revision ${id}: its chain is broken`);
      const known = decoded.get(body.id);
      if (known !== undefined) return replay(chain, known);
      chain.push(body);
      if (body.content !== null || body.base_id === null) return replay(chain, '');
    }
  };
  return contentOf;
}

function decodeOne(body: Body, base: string): string {
  if (body.content !== null) return body.content;
  if (body.base_id === null) return unpackWhole(body.packed!);
  return applyDelta(base, unpackDelta(body.packed!));
}

/** The content of one version of the chapter (undefined when it has no such version). */
export async function versionContent(
  db: DbHandle,
  chapterId: number,
  id: number,
): Promise<string | undefined> {
  const chain = await revisions.revisionChain(db, chapterId, id);
  if (!chain.some((body) => body.id === id)) return undefined;
  return decoder(chain)(id);
}

export const listVersions = revisions.listRevisions;
export const findVersion = revisions.findRevision;

/**
 * Packs and thins one chapter's versions at `now`: drops what the retention rule lets go, and
 * stores every kept version that is not packed yet, or whose base was dropped, as a delta
 * against the version kept before it (or whole). Versions saved meanwhile are left for the next
 * run. Answers how many versions were dropped.
 */
async function compactChapter(trx: DbHandle, chapterId: number, now: number): Promise<number> {
  const links = await revisions.revisionLinks(trx, chapterId);
  const keep = versionsToKeep(
    links.map((l) => ({ id: l.id, created_at: l.created_at, published: l.published === 1 })),
    now,
  );
  const dropped = links.filter((l) => !keep.has(l.id)).map((l) => l.id);
  const contentOf = decoder(
    await revisions.revisionBodies(
      trx,
      links.map((l) => l.id),
    ),
  );
  const depth = new Map<number, number>();
  let previous: { id: number; content: string; depth: number } | undefined;
  for (const link of links) {
    if (!keep.has(link.id)) continue;
    const content = contentOf(link.id);
    const rebase = !link.packed_already || (link.base_id !== null && !keep.has(link.base_id));
    if (rebase) {
      const { packed, delta } = packVersion(content, previous);
      await revisions.setPacked(trx, link.id, packed, delta ? previous!.id : null);
      depth.set(link.id, delta ? previous!.depth + 1 : 0);
    } else {
      depth.set(link.id, link.base_id === null ? 0 : (depth.get(link.base_id) ?? 0) + 1);
    }
    previous = { id: link.id, content, depth: depth.get(link.id)! };
  }
  await revisions.deleteRevisions(trx, dropped);
  return dropped.length;
}

const DAY_MS = 86_400_000;

/**
 * The scheduled job (modules/jobs/schedule.ts): purges the chapters deleted DELETED_CHAPTER_DAYS
 * ago or more with their versions, then packs and thins every chapter's versions, one chapter
 * per transaction. `now` is a parameter so a test with a fake clock can drive it.
 */
export async function compactRevisions(
  db: Db,
  now: number,
): Promise<{ purged: number; dropped: number; chapters: number }> {
  const purged = await revisions.purgeDeletedChapters(
    db,
    new Date(now - DELETED_CHAPTER_DAYS * DAY_MS).toISOString(),
  );
  const chapters = await revisions.chaptersWithRevisionWork(db, retentionCutoffs(now));
  let dropped = 0;
  for (const chapterId of chapters)
    dropped += await db.transaction().execute((trx) => compactChapter(trx, chapterId, now));
  return { purged, dropped, chapters: chapters.length };
}

export const listDeletedChapters = revisions.listDeletedChapters;

/** When a chapter deleted at `deletedAt` is purged. */
export const purgeTime = (deletedAt: string) =>
  new Date(Date.parse(deletedAt) + DELETED_CHAPTER_DAYS * DAY_MS).toISOString();
