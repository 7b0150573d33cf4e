import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { MutationCallbacks } from '../../../lib/mutations.ts';
import { historyChanged } from '../../../lib/query.ts';

/**
 * Deletes one chapter from the reader's history; the history, and what is counted from it, is
 * asked again either way.
 */
export function useDeleteHistoryItem(ui: MutationCallbacks<unknown, number> = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (chapterId: number) => api.delete(`/api/chapters/${chapterId}/history`),
    ...ui,
    onSettled: () => historyChanged(client),
  });
}
