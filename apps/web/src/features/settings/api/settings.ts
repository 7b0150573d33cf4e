import type {
  Account,
  Href,
  MyFilters,
  UpdateAuthorBody,
  UpdateMyFiltersBody,
  UserList,
} from '@inkwell/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { MutationCallbacks } from '../../../lib/mutations.ts';
import { refreshPublicViews } from '../../../lib/query.ts';
import { keys } from '../../../lib/query-keys.ts';
import { useSession } from '../../../lib/session.tsx';

/**
 * Saves the profile. The answer is the account as saved, and the session takes it as it is: a
 * fetch of the session after it could fail and leave the old username on every page. Then every
 * view that shows the author's names and links is asked again: author pages, and books, which
 * carry their author's username and names.
 */
export function useUpdateProfile(
  authorId: number,
  ui: MutationCallbacks<Account, UpdateAuthorBody> = {},
) {
  const client = useQueryClient();
  const session = useSession();
  return useMutation({
    mutationFn: (body: UpdateAuthorBody) => api.put<Account>(`/api/authors/${authorId}`, body),
    onSuccess: async (account, ...rest) => {
      session.accept(account);
      await ui.onSuccess?.(account, ...rest);
      refreshPublicViews(client);
      void client.invalidateQueries({ queryKey: keys.myBooks });
    },
    onError: ui.onError,
  });
}

/**
 * Uploads the signed-in author's avatar. The session takes the new image from the answer, as a
 * profile save does; their profile pages show it at once.
 */
export function useUploadAvatar(ui: MutationCallbacks<Href, File> = {}) {
  const client = useQueryClient();
  const session = useSession();
  const account = session.state.account;
  return useMutation({
    mutationFn: (file: File) => api.upload<Href>('/api/authors/avatar', file),
    ...ui,
    onSuccess: async (...args) => {
      if (account) session.accept({ ...account, avatar: args[0].href });
      await ui.onSuccess?.(...args);
      void client.invalidateQueries({ queryKey: keys.authors });
    },
  });
}

/** The two lists of issue 19: whom the user blocked, whom they muted. */
export type UserListKind = 'blocks' | 'mutes';

export const userListQuery = (kind: UserListKind) =>
  queryOptions({
    queryKey: keys[kind],
    queryFn: async ({ signal }) => (await api.get<UserList>(`/api/my/${kind}`, signal)).users,
  });

/**
 * Puts a user on the list (by username), or takes one off; the answer is the list as it now is,
 * written into its query at once. Comments already loaded are asked again, as a mute or block
 * changes whose are shown. A block also ends the blocked user's follows of the user's books,
 * which the follower sees on their next visit (nothing of the blocker's own changes).
 */
export function useChangeUserList(
  kind: UserListKind,
  ui: MutationCallbacks<UserList, { username: string; remove?: boolean }> = {},
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ username, remove }: { username: string; remove?: boolean }) =>
      remove
        ? api.delete<UserList>(`/api/my/${kind}/${encodeURIComponent(username)}`)
        : api.post<UserList>(`/api/my/${kind}`, { username }),
    ...ui,
    onSuccess: async (list, ...rest) => {
      client.setQueryData(keys[kind], list.users);
      void client.invalidateQueries({ queryKey: keys.allComments });
      await ui.onSuccess?.(list, ...rest);
    },
  });
}

/** The reader's saved exclusions (issue 21): tags, warnings, ratings and authors never shown. */
export const myFiltersQuery = () =>
  queryOptions({
    queryKey: keys.myFilters,
    queryFn: ({ signal }) => api.get<MyFilters>('/api/my/filters', signal),
  });

/**
 * Saves the exclusions; the answer is what is kept now. Every list of books the reader meets is
 * narrowed by them, so every one is asked again.
 */
export function useSaveMyFilters(ui: MutationCallbacks<MyFilters, UpdateMyFiltersBody> = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateMyFiltersBody) => api.put<MyFilters>('/api/my/filters', body),
    ...ui,
    onSuccess: async (saved, ...rest) => {
      client.setQueryData(keys.myFilters, saved);
      for (const queryKey of [keys.books, keys.home, keys.authors, keys.followedBooks])
        void client.invalidateQueries({ queryKey });
      await ui.onSuccess?.(saved, ...rest);
    },
  });
}
