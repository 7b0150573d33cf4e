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

type Body = Awaited<ReturnType<typeof revisions.revisionBodiesFrom>>[number];

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

/**
 * Packs and thins one chapter's versions at `now`: drops what the retention rule lets go, and
 * stores every kept version that is not packed yet, or whose base was dropped, as a delta
 * against the version kept before it (or whole). Versions saved meanwhile are left for the next
 * run. Only the versions from the last kept whole one before the first needing work are decoded:
 * the ones before it stay as they are. Answers how many versions were dropped.
 */
async function compactChapter(trx: DbHandle, chapterId: number, now: number): Promise<number> {
  await revisions.lockChapterVersions(trx, chapterId);
  const links = await revisions.revisionLinks(trx, chapterId);
  const keep = versionsToKeep(
    links.map((l) => ({ id: l.id, created_at: l.created_at, published: l.published === 1 })),
    now,
  );
  const rebase = (l: (typeof links)[number]) =>
    !l.packed_already || (l.base_id !== null && !keep.has(l.base_id));
  const first = links.findIndex((l) => !keep.has(l.id) || rebase(l));
  if (first === -1) return 0;
  // Every chain from here on starts at or after a kept version that stands alone, packed whole.
  let start = first;
  while (
    start > 0 &&
    !(keep.has(links[start]!.id) && links[start]!.packed_already && links[start]!.base_id === null)
  )
    start--;
  const dropped = links.filter((l) => !keep.has(l.id)).map((l) => l.id);
  const contentOf = decoder(await revisions.revisionBodiesFrom(trx, chapterId, links[start]!.id));
  const depth = new Map<number, number>();
  // Decoded only where a version is packed against it (the decoder remembers what it decoded).
  let previous: { id: number; depth: number } | undefined;
  for (const link of links.slice(start)) {
    if (!keep.has(link.id)) continue;
    if (rebase(link)) {
      const base = previous && { content: contentOf(previous.id), depth: previous.depth };
      const { packed, delta } = packVersion(contentOf(link.id), base);
      await revisions.setPacked(trx, link.id, packed, delta ? previous!.id : null);
      depth.set(link.id, delta ? previous!.depth + 1 : 0);
    } else {
      depth.set(link.id, link.base_id === null ? 0 : (depth.get(link.base_id) ?? 0) + 1);
    }
    previous = { id: link.id, depth: depth.get(link.id)! };
  }
  await revisions.deleteRevisions(trx, dropped);
  return dropped.length;
}

const DAY_MS = 86_400_000;

/** How long one run starts chapters for: well inside the job's lease (periodic-jobs.ts, 10 min). */
const COMPACTION_RUN_MS = 120_000;

/**
 * The scheduled job (modules/jobs/schedule.ts): purges the chapters deleted DELETED_CHAPTER_DAYS
 * ago or more with their versions, then packs and thins every chapter's versions, one chapter
 * per transaction, until `budgetMs` has passed (the rest waits for the next run). `now` is a
 * parameter so a test with a fake clock can drive it.
 */
export async function compactRevisions(
  db: Db,
  now: number,
  budgetMs = COMPACTION_RUN_MS,
): Promise<{ purged: number; dropped: number; chapters: number }> {
  const until = Date.now() + budgetMs;
  const purged = await db
    .transaction()
    .execute((trx) =>
      revisions.purgeDeletedChapters(
        trx,
        new Date(now - DELETED_CHAPTER_DAYS * DAY_MS).toISOString(),
      ),
    );
  const chapters = await revisions.chaptersWithRevisionWork(db, retentionCutoffs(now));
  let dropped = 0;
  let done = 0;
  for (const chapterId of chapters) {
    if (done > 0 && Date.now() >= until) break;
    dropped += await db.transaction().execute((trx) => compactChapter(trx, chapterId, now));
    done++;
  }
  return { purged, dropped, chapters: done };
}

/** When a chapter deleted at `deletedAt` is purged. */
export const purgeTime = (deletedAt: string) =>
  new Date(Date.parse(deletedAt) + DELETED_CHAPTER_DAYS * DAY_MS).toISOString();
