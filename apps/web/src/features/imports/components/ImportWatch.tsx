import { notifyManager, queryOptions, useQueries, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';
import { isApiError } from '../../../lib/api.ts';
import { IMPORT_POLL_MS, importEnded, importJobQuery, unfinishedImports } from '../api/imports.ts';

/** The session ended (401), or the job is not this account's or gone: asking won't change it. */
const refused = (error: unknown) => [401, 403, 404].some((status) => isApiError(error, status));

/**
 * The app's one follower of imports, mounted with the layout: every job the cache holds
 * unfinished is asked about every second until it ends, on whatever page the author is by then
 * (a page's own queries stop when it is left, and the workspace kept showing the books without
 * the imported one until a reload). The import page only reads the jobs.
 */
export function ImportWatch() {
  const client = useQueryClient();
  const subscribe = useCallback(
    (change: () => void) => client.getQueryCache().subscribe(notifyManager.batchCalls(change)),
    [client],
  );
  const following = useSyncExternalStore(subscribe, () => unfinishedImports(client));
  useQueries({
    queries: (following ? following.split(',') : []).map((id) =>
      queryOptions({
        ...importJobQuery(Number(id)),
        // Just read (that is how it is known unfinished): next asked a second from now.
        refetchOnMount: false,
        refetchInterval: (query) => (refused(query.state.error) ? false : IMPORT_POLL_MS),
      }),
    ),
  });

  // A job no longer unfinished has ended (or the cache was emptied, at logout: nothing to do).
  const before = useRef(following);
  useEffect(() => {
    const now = following.split(',');
    if (before.current.split(',').some((id) => id && !now.includes(id))) importEnded(client);
    before.current = following;
  }, [following, client]);
  return null;
}
