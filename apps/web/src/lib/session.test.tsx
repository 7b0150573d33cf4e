import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { accountFixture, apiAnswer, stubApi } from '../../test/fixtures.ts';
import { SessionProvider, useSession } from './session.tsx';

const signedIn = () => ({ access_token: 'token-7', account: accountFixture(7, 'ada') });

/** The session hook under a provider that asked GET /token at start, as the app does. */
function renderSession() {
  return renderHook(() => useSession(), {
    wrapper: ({ children }: { children: ReactNode }) => (
      <SessionProvider>{children}</SessionProvider>
    ),
  });
}

describe('the session when GET /token fails', () => {
  afterEach(() => vi.restoreAllMocks());

  it('stays signed in when the server cannot be reached after a profile save', async () => {
    let reachable = true;
    stubApi(() => (reachable ? apiAnswer(signedIn()) : Promise.reject(new TypeError('offline'))));
    const { result } = renderSession();
    await waitFor(() => expect(result.current.state.status).toBe('in'));

    reachable = false;
    await act(() => result.current.refresh());
    expect(result.current.state.status).toBe('in');
    expect(result.current.state.account?.username).toBe('ada');
  });

  it('stays signed in through a server error, and signs out when the server says so', async () => {
    let answer = () => apiAnswer(signedIn());
    stubApi(() => answer());
    const { result } = renderSession();
    await waitFor(() => expect(result.current.state.status).toBe('in'));

    answer = () => apiAnswer({ detail: 'Service unavailable' }, 503);
    await act(() => result.current.refresh());
    expect(result.current.state.status).toBe('in');

    answer = () => apiAnswer({ access_token: null });
    await act(() => result.current.refresh());
    expect(result.current.state.status).toBe('out');
  });

  it('starts signed out when the first fetch fails, with nothing to keep', async () => {
    stubApi(() => Promise.reject(new TypeError('offline')));
    const { result } = renderSession();
    await waitFor(() => expect(result.current.state.status).toBe('out'));
  });
});
