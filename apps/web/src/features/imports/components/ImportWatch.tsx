import { notifyManager, queryOptions, useQueries, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';
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

/** The job is not this account's, or is gone: asking won't change it, nor will signing in again. */
const refused = (error: unknown) => [403, 404].some((status) => isApiError(error, status));
/** Asking again is pointless: the job is refused, or the session ended (401; kept for the next one). */
const unanswerable = (error: unknown) => refused(error) || isApiError(error, 401);

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
  const subscribe = useCallback(
    (change: () => void) => client.getQueryCache().subscribe(notifyManager.batchCalls(change)),
    [client],
  );
  // The kept ids are read here, not once: an ended job leaves them, and must not come back when
  // the cache later drops its query (an unwatched query is collected after five minutes).
  const following = useSyncExternalStore(subscribe, () =>
    unfinishedImports(client, accountId === null ? [] : followedImports(accountId)),
  );
  const jobs = useQueries({
    queries: idsOf(following).map((id) =>
      queryOptions({
        ...importJobQuery(id),
        // Just read (that is how it is known unfinished): next asked a second from now. A kept
        // job not read yet is asked at once.
        refetchOnMount: false,
        refetchInterval: (query) => (unanswerable(query.state.error) ? false : IMPORT_POLL_MS),
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

  // Signed out, or another account signed in (in another tab): the last account's jobs are not
  // followed again. Jobs still in the cache are asked about again as the new account, like every
  // answer after a change of account (App's askAgain): the server refuses them (403, 404), and
  // they are dropped as above.
  const signedIn = useRef(accountId);
  useEffect(() => {
    if (signedIn.current !== null && signedIn.current !== accountId)
      forgetFollowedImports(signedIn.current);
    signedIn.current = accountId;
  }, [accountId]);
  return null;
}
