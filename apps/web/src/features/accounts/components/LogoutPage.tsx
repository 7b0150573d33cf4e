import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { PageTitle } from '../../../components/Page.tsx';
import { REDIRECT_AFTER_LOGOUT_MS } from '../../../lib/constants.ts';
import { paths } from '../../../lib/paths.ts';
import { useSession } from '../../../lib/session.tsx';

const LOGGED_OUT = 'Logged out. Redirecting...';

export function LogoutPage() {
  const { logout } = useSession();
  const navigate = useNavigate();
  const client = useQueryClient();

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let cancelled = false;
    void logout()
      .catch(() => undefined)
      .finally(() => {
        // Nothing of the previous user stays in the cache.
        client.clear();
        if (!cancelled)
          timer = setTimeout(
            () => navigate(paths.landing, { replace: true }),
            REDIRECT_AFTER_LOGOUT_MS,
          );
      });
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [logout, navigate, client]);

  return (
    <div className="page page-narrow">
      <PageTitle title="Log Out">{LOGGED_OUT}</PageTitle>
    </div>
  );
}
