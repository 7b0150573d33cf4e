import type { Account, Href, UpdateAuthorBody } from '@inkwell/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { MutationCallbacks } from '../../../lib/mutations.ts';
import { keys } from '../../../lib/query-keys.ts';

/** Saves the profile; every author view (names, links) is asked again afterwards. */
export function useUpdateProfile(
  authorId: number,
  ui: MutationCallbacks<Account, UpdateAuthorBody> = {},
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateAuthorBody) => api.put<Account>(`/api/authors/${authorId}`, body),
    onSuccess: async (...args) => {
      await ui.onSuccess?.(...args);
      void client.invalidateQueries({ queryKey: keys.authors });
    },
    onError: ui.onError,
  });
}

export function useUploadAvatar(ui: MutationCallbacks<Href, File> = {}) {
  return useMutation({
    mutationFn: (file: File) => api.upload<Href>('/api/authors/avatar', file),
    ...ui,
  });
}
