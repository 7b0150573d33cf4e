import type { AppContext } from '../../context.ts';
import { purgeExpiredSessions } from '../accounts/accounts.service.ts';
import { compactRevisions } from '../revisions/revisions.service.ts';
import type { PeriodicJob } from './periodic-jobs.ts';

/**
 * Every periodic job of the app, each run once per interval across all processes
 * (periodic-jobs.ts). A new one (scheduled releases, revision compaction, view-count flushes)
 * is one more entry here: a unique name, an interval, and its module's service function.
 */
export function periodicJobs(ctx: AppContext): PeriodicJob[] {
  return [
    {
      name: 'session-purge',
      intervalMs: ctx.config.SESSION_PURGE_INTERVAL_SECONDS * 1000,
      run: () => purgeExpiredSessions(ctx),
    },
    {
      // Packs and thins kept chapter versions, and purges chapters deleted 30 days ago (issue 20).
      name: 'revision-compaction',
      intervalMs: ctx.config.REVISION_COMPACT_INTERVAL_SECONDS * 1000,
      run: async () => void (await compactRevisions(ctx)),
    },
  ];
}
