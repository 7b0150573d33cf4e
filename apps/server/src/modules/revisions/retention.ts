import { REVISIONS_HOURLY_DAYS, REVISIONS_KEEP_ALL_HOURS } from '@inkwell/contract';

const HOUR_MS = 3_600_000;
const KEEP_ALL_MS = REVISIONS_KEEP_ALL_HOURS * HOUR_MS;
const HOURLY_MS = REVISIONS_HOURLY_DAYS * 24 * HOUR_MS;

export interface RetainedFacts {
  id: number;
  /** ISO-8601 UTC, as every timestamp is stored. */
  created_at: string;
  /** Readers could read this version: kept forever. */
  published: boolean;
}

/**
 * Which of a chapter's versions the retention rule keeps at `now` (issue 20): every version of
 * the last 48 hours; older, up to 30 days, the newest of each clock hour (UTC); older still,
 * the newest of each day (UTC); and every published version whatever its age. A pure function
 * of its arguments, so a test with a fake clock checks the rule exactly.
 */
export function versionsToKeep(versions: readonly RetainedFacts[], now: number): Set<number> {
  const keep = new Set<number>();
  const bucketsTaken = new Set<string>();
  const newestFirst = [...versions].sort(
    (a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id,
  );
  for (const version of newestFirst) {
    const age = now - Date.parse(version.created_at);
    if (version.published || age <= KEEP_ALL_MS) {
      keep.add(version.id);
      continue;
    }
    const bucket = bucketOf(version.created_at, age);
    if (!bucketsTaken.has(bucket)) {
      bucketsTaken.add(bucket);
      keep.add(version.id);
    }
  }
  return keep;
}

/** How much of an ISO timestamp names its hour ("2026-11-25T19") and its day ("2026-11-25"). */
const HOUR_CHARS = 13;
const DAY_CHARS = 10;

/** The hour or, past REVISIONS_HOURLY_DAYS, the day of a version. */
function bucketOf(createdAt: string, age: number): string {
  return createdAt.slice(0, age <= HOURLY_MS ? HOUR_CHARS : DAY_CHARS);
}

/**
 * The rule's cut-offs and buckets, for the database's look at which chapters have work
 * (revisions.repository's chaptersWithRevisionWork): `created_at >= hourlyAfter` there is
 * `age <= HOURLY_MS` here, and `created_at < keepAllAfter` is `age > KEEP_ALL_MS`.
 */
export function retentionCutoffs(now: number) {
  return {
    keepAllAfter: new Date(now - KEEP_ALL_MS).toISOString(),
    hourlyAfter: new Date(now - HOURLY_MS).toISOString(),
    hourChars: HOUR_CHARS,
    dayChars: DAY_CHARS,
  };
}
