import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useDeleteHistoryItem } from '../src/features/history/api/history.ts';
import { recordHistory } from '../src/features/reader/api/reader.ts';
import { createQueryClient } from '../src/lib/query.ts';
import { keys } from '../src/lib/query-keys.ts';

afterEach(() => vi.unstubAllGlobals());

/** The query keys a change to the read history marks stale, by the client's own invalidations. */
function invalidationsOf(client: ReturnType<typeof createQueryClient>) {
  const spy = vi.spyOn(client, 'invalidateQueries');
  return () => spy.mock.calls.map(([filters]) => JSON.stringify(filters?.queryKey));
}
const COUNTED_FROM_HISTORY = [keys.history, keys.library, keys.followedBooks].map((key) =>
  JSON.stringify(key),
);

describe('a change to the read history', () => {
  it('marks stale what is counted from it, whether a chapter was read or taken out', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(null, { status: 204 })),
    );
    const client = createQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const deleted = invalidationsOf(client);
    const { result } = renderHook(() => useDeleteHistoryItem(), { wrapper });
    await act(() => result.current.mutateAsync(9));
    expect(deleted()).toEqual(expect.arrayContaining(COUNTED_FROM_HISTORY));

    const other = createQueryClient();
    const read = invalidationsOf(other);
    await recordHistory(other, 1, 9);
    expect(read()).toEqual(expect.arrayContaining(COUNTED_FROM_HISTORY));
  });
});
