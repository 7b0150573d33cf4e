import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useUploadAvatar } from '../src/features/settings/api/settings.ts';
import { createQueryClient } from '../src/lib/query.ts';
import { keys } from '../src/lib/query-keys.ts';
import { SessionProvider } from '../src/lib/session.tsx';
import { accountFixture } from './fixtures.ts';

afterEach(() => vi.unstubAllGlobals());

describe('uploading an avatar', () => {
  it('marks the author pages stale, so the profile shows the new one at once', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ href: '/uploads/new.jpg' })),
    );
    const client = createQueryClient();
    const invalidated = vi.spyOn(client, 'invalidateQueries');
    const toasted = vi.fn();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>
        <SessionProvider initial={{ status: 'in', token: 't', account: accountFixture(7, 'ann') }}>
          {children}
        </SessionProvider>
      </QueryClientProvider>
    );
    const { result } = renderHook(() => useUploadAvatar({ onSuccess: toasted }), { wrapper });
    await act(() => result.current.mutateAsync(new File(['x'], 'me.png', { type: 'image/png' })));
    expect(toasted).toHaveBeenCalledOnce();
    expect(invalidated.mock.calls.map(([filters]) => filters?.queryKey)).toContainEqual(
      keys.authors,
    );
  });
});
