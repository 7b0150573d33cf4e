import { Navigate, Outlet, useLocation } from 'react-router';
import { Loading } from '../components/Status.tsx';
import { paths } from '../lib/paths.ts';
import { useSession } from '../lib/session.tsx';

/** The login guard: without a session, go to /accounts/login/?prev={current path}. */
export function RequireAuth() {
  const { state } = useSession();
  const location = useLocation();
  if (state.status === 'loading') return <Loading />;
  if (state.status === 'out') {
    return <Navigate replace to={paths.login(location.pathname + location.search)} />;
  }
  return <Outlet />;
}
