import type { Account, SessionResponse } from '@inkwell/contract';
import type { SignupResponse } from './contract-types.ts';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { request, setBearerToken } from './api.ts';
import { pendingWritesEnded } from './pending-writes.ts';

/**
 * The session (SPEC section 4): at start the client asks GET /token with the cookie (unless the page
 * says there is no cookie). No token means logged out, and the "token-fetch error" flag (status
 * 'out') sends guarded pages to login.
 */
export type SessionState =
  | { status: 'loading'; token: null; account: null }
  | { status: 'out'; token: null; account: null }
  | { status: 'in'; token: string; account: Account };

export interface Session {
  state: SessionState;
  /** POST /token, then GET /token for the account. Throws the ApiError of a refused login. */
  login(username: string, password: string): Promise<void>;
  /** POST /api/authors (which signs in too). Throws on failure; `loggedIn` says whether a session came back. */
  signup(username: string, password: string): Promise<{ loggedIn: boolean }>;
  logout(): Promise<void>;
  /** Fetches the session again (as the provider does once, on its first render). */
  refresh(): Promise<void>;
  /**
   * Takes up the account a write answered (a saved profile): the page shows what the server
   * accepted at once, with no fetch after it that could fail and leave the old account on screen.
   * Ignored unless that account is still the one signed in.
   */
  accept(account: Account): void;
  /**
   * Takes up a session signed in again in another tab (its cookie), if there is one; with none,
   * the page stays as it is rather than turning signed out (the editor keeps its unsaved text).
   */
  renew(): Promise<void>;
}

const LOADING: SessionState = { status: 'loading', token: null, account: null };
const OUT: SessionState = { status: 'out', token: null, account: null };

const SessionContext = createContext<Session | null>(null);

/**
 * The server marks a page requested without a session cookie (apps/server/src/plugins/web-app.ts):
 * such a visitor has no session to ask GET /token about, so the app starts signed out at once and
 * renders its first page one request and one re-render sooner.
 */
const pageSaysNoSession = () =>
  document.querySelector('meta[name="inkwell-session"]')?.getAttribute('content') === 'none';

/**
 * The browser's session as its cookie says (another tab may have signed in or out since), or null
 * when the server could not say: a network failure or a server error. The server answers a
 * signed-out browser 200 with no token, so not knowing is never taken for being signed out.
 */
async function fetchSession(): Promise<SessionState | null> {
  try {
    const answer = await request<SessionResponse>('/token', { cookieOnly: true });
    return answer.access_token
      ? { status: 'in', token: answer.access_token, account: answer.account }
      : OUT;
  } catch {
    return null;
  }
}

export function SessionProvider({
  children,
  initial,
  onAccountChange,
}: {
  children: ReactNode;
  initial?: SessionState;
  /** Called when someone else is signed in than before (or no one): answers asked as the
   * previous viewer (a visitor's book without `following`) are no longer right. */
  onAccountChange?: () => void;
}) {
  const [known] = useState(() => initial ?? (pageSaysNoSession() ? OUT : undefined));
  const [state, setState] = useState<SessionState>(known ?? LOADING);
  // The state a failed fetch keeps (read at call time, so the callbacks stay stable).
  const current = useRef(state);
  current.current = state;

  const apply = useCallback(
    (next: SessionState) => {
      setBearerToken(next.token);
      setState((previous) => {
        if (previous.status !== 'loading' && previous.account?.id !== next.account?.id)
          onAccountChange?.();
        return next;
      });
      return next;
    },
    [onAccountChange],
  );

  // A failed fetch keeps a signed-in page signed in (a network blip after a profile save must not
  // look like a sign-out); only the first fetch, with nothing to keep, starts signed out.
  const refresh = useCallback(async () => {
    const next = await fetchSession();
    if (next) apply(next);
    else if (current.current.status === 'loading') apply(OUT);
  }, [apply]);

  const accept = useCallback(
    (account: Account) => {
      const now = current.current;
      if (now.status === 'in' && now.account.id === account.id) apply({ ...now, account });
    },
    [apply],
  );

  const renew = useCallback(async () => {
    const next = await fetchSession();
    if (next?.status === 'in') apply(next);
  }, [apply]);

  useEffect(() => {
    if (!known) void refresh();
  }, [known, refresh]);

  const login = useCallback(
    async (username: string, password: string) => {
      await request('/token', { method: 'POST', form: { username, password } });
      const next = await fetchSession();
      if (next) apply(next);
      if (next?.status !== 'in') throw new Error('Could not log in');
    },
    [apply],
  );

  const signup = useCallback(
    async (username: string, password: string) => {
      // The server signs the new account in and answers its session; the spec's automatic login
      // is the fallback for an answer without one.
      const created = await request<Partial<SignupResponse> | undefined>('/api/authors', {
        method: 'POST',
        json: { username, password },
      });
      if (created?.access_token && created.account) {
        apply({ status: 'in', token: created.access_token, account: created.account });
        return { loggedIn: true };
      }
      try {
        await login(username, password);
        return { loggedIn: true };
      } catch {
        return { loggedIn: false };
      }
    },
    [apply, login],
  );

  const logout = useCallback(async () => {
    try {
      await pendingWritesEnded();
      await request('/token', { method: 'DELETE' });
    } finally {
      apply(OUT);
    }
  }, [apply]);

  const session = useMemo<Session>(
    () => ({ state, refresh, accept, renew, login, signup, logout }),
    [state, refresh, accept, renew, login, signup, logout],
  );

  return <SessionContext value={session}>{children}</SessionContext>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

/** The signed-in account, or null. */
export const useAccount = (): Account | null => {
  const { state } = useSession();
  return state.status === 'in' ? state.account : null;
};
