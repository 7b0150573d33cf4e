import type { ReadHistoryItem } from '@inkwell/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { keys } from '../../../lib/query.ts';

export const historyQuery = () =>
  queryOptions({
    queryKey: keys.history,
    queryFn: ({ signal }) =>
      api.get<{ read_history: ReadHistoryItem[] }>('/api/my/history', signal),
  });

export const deleteHistoryItem = (chapterId: number) =>
  api.delete(`/api/chapters/${chapterId}/history`);
