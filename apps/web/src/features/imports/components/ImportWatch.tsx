import { notifyManager, queryOptions, useQueries, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { isApiError } from '../../../lib/api.ts';
import { useAccount } from '../../../lib/session.tsx';
import {
  followedImports,
  followImports,
  forgetFollowedImports,
  unfollowImports,
} from '../api/followedImports.ts';
import {
  endedImports,
  IMPORT_POLL_MS,
  importEnded,
  importJobQuery,
  unfinishedImports,
} from '../api/imports.ts';

/** The session ended (401), or the job is not this account's or gone: asking won't change it. */
const refused = (error: unknown) => [401, 403, 404].some((status) => isApiError(error, status));

const idsOf = (list: string) => (list ? list.split(',').map(Number) : []);

/**
 * The app's one follower of imports, mounted with the layout: every job the cache holds
 * unfinished is asked about every second until it ends, on whatever page the author is by then
 * (a page's own queries stop when it is left, and the workspace kept showing the books without
 * the imported one until a reload). The import page only reads the jobs.
 *
 * The followed jobs are kept for the account in localStorage (followedImports), so that after a
 * reload, or in a new tab, the ones still running are followed again from the first page: the
 * server is asked about them only, and only when there are some.
 */
export function ImportWatch() {
  const client = useQueryClient();
  const accountId = useAccount()?.id ?? null;
  // Read once per account: a kept job leaves the list below when the cache sees it end.
  const kept = useMemo(() => (accountId === null ? [] : followedImports(accountId)), [accountId]);
  const subscribe = useCallback(
    (change: () => void) => client.getQueryCache().subscribe(notifyManager.batchCalls(change)),
    [client],
  );
  const following = useSyncExternalStore(subscribe, () => unfinishedImports(client, kept));
  const jobs = useQueries({
    queries: idsOf(following).map((id) =>
      queryOptions({
        ...importJobQuery(id),
        // Just read (that is how it is known unfinished): next asked a second from now. A kept
        // job not read yet is asked at once.
        refetchOnMount: false,
        refetchInterval: (query) => (refused(query.state.error) ? false : IMPORT_POLL_MS),
      }),
    ),
  });
  const refusedIds = idsOf(following)
    .filter((_, i) => refused(jobs[i]?.error))
    .join(',');

  // Kept for the next load: the unfinished jobs, not those the server refuses to say about.
  useEffect(() => {
    if (accountId === null) return;
    const refusedNow = idsOf(refusedIds);
    unfollowImports(accountId, refusedNow);
    followImports(
      accountId,
      idsOf(following).filter((id) => !refusedNow.includes(id)),
    );
  }, [accountId, following, refusedIds]);

  // A job no longer unfinished has ended (or the cache was emptied, at logout: nothing to do).
  const before = useRef(following);
  useEffect(() => {
    const now = idsOf(following);
    const gone = idsOf(before.current).filter((id) => !now.includes(id));
    before.current = following;
    if (gone.length === 0) return;
    importEnded(client);
    if (accountId === null) return;
    const ended = endedImports(client);
    unfollowImports(
      accountId,
      gone.filter((id) => ended.has(id)),
    );
  }, [following, client, accountId]);

  // Signed out (or another account signed in): the last account's jobs are not followed again.
  const signedIn = useRef(accountId);
  useEffect(() => {
    if (signedIn.current !== null && signedIn.current !== accountId)
      forgetFollowedImports(signedIn.current);
    signedIn.current = accountId;
  }, [accountId]);
  return null;
}
