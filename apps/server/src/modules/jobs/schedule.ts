import type { AppContext } from '../../context.ts';
import { purgeExpiredSessions } from '../accounts/accounts.service.ts';
import { releaseDueChapters } from '../releases/releases.service.ts';
import { compactRevisions } from '../revisions/revisions.service.ts';
import type { PeriodicJob } from './periodic-jobs.ts';

/**
 * Every periodic job of the app, each run once per interval across all processes
 * (periodic-jobs.ts). A new one is one more entry here: a unique name, an interval, and its
 * module's service function. (Per-process work, such as flushing view counts, is not a job.)
 */
export function periodicJobs(ctx: AppContext): PeriodicJob[] {
  return [
    {
      name: 'session-purge',
      intervalMs: ctx.config.SESSION_PURGE_INTERVAL_SECONDS * 1000,
      run: () => purgeExpiredSessions(ctx),
    },
    {
      // Issue 20. Each due row is claimed by its own UPDATE, so a second runner (a lapsed lease)
      // could never publish a chapter twice; the short lease only bounds how long a process that
      // died mid-run delays the next release.
      name: 'chapter-release',
      intervalMs: ctx.config.RELEASE_POLL_INTERVAL_MS,
      leaseMs: 5_000,
      run: async () => void (await releaseDueChapters(ctx)),
    },
    {
      // Packs and thins kept chapter versions, and purges chapters deleted 30 days ago (issue 20).
      name: 'revision-compaction',
      intervalMs: ctx.config.REVISION_COMPACT_INTERVAL_SECONDS * 1000,
      run: async () => void (await compactRevisions(ctx)),
    },
  ];
}
