import { useMutation, useMutationState, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { MutationCallbacks } from '../../../lib/mutations.ts';
import { historyChanged } from '../../../lib/query.ts';

/** The history deletes' mutation key: `useHistoryDeletesPending` finds them all by it. */
const DELETE_HISTORY_ITEM = ['delete-history-item'] as const;

/**
 * Deletes one chapter from the reader's history; the history, and what is counted from it, is
 * asked again either way.
 */
export function useDeleteHistoryItem(ui: MutationCallbacks<unknown, number> = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: DELETE_HISTORY_ITEM,
    mutationFn: (chapterId: number) => api.delete(`/api/chapters/${chapterId}/history`),
    ...ui,
    onSettled: () => historyChanged(client),
  });
}

/**
 * The chapters whose history deletes are still on their way: every one of them, not only the
 * latest (a mutation's own `variables` are the last call's, so a second row's delete would make
 * the first row's button usable again while its delete is still running).
 */
export function useHistoryDeletesPending(): ReadonlySet<number> {
  const pending = useMutationState({
    filters: { mutationKey: DELETE_HISTORY_ITEM, status: 'pending' },
    select: (mutation) => mutation.state.variables as number,
  });
  return new Set(pending);
}
