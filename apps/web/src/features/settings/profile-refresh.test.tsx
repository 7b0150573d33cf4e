import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { accountFixture, apiAnswer, stubApi } from '../../../test/fixtures.ts';
import { createQueryClient } from '../../lib/query.ts';
import { keys } from '../../lib/query-keys.ts';
import { useUpdateProfile } from './api/settings.ts';

describe('saving the profile', () => {
  it('asks again for every view that shows the author: their pages, books and own book list', async () => {
    stubApi(() => apiAnswer(accountFixture(7, 'renamed')));
    const client = createQueryClient();
    const shown = [keys.author('old'), keys.book(3), keys.homeRecent(false), keys.myBooks];
    for (const key of shown) client.setQueryData(key, {});
    const { result } = renderHook(() => useUpdateProfile(7), {
      wrapper: ({ children }: { children: ReactNode }) => (
        <QueryClientProvider client={client}>{children}</QueryClientProvider>
      ),
    });
    act(() => result.current.mutate({ username: 'renamed' }));
    for (const key of shown)
      await waitFor(() => expect(client.getQueryState(key)?.isInvalidated).toBe(true));
  });
});
