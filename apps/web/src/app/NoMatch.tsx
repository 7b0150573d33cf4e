import { Link, useLocation } from 'react-router';
import { PageTitle } from '../components/Page.tsx';
import { paths } from '../lib/paths.ts';

/** 'No Match for {path}'; areas (accounts, workspace) pass their own way back. */
export function NoMatch({
  back = { to: paths.home, label: 'Go to the home page' },
}: {
  back?: { to: string; label: string };
}) {
  const { pathname } = useLocation();
  return (
    <div className="page page-narrow no-match">
      <PageTitle title="Page not found">
        No Match for <code>{pathname}</code>
      </PageTitle>
      <p>There is no page at this address.</p>
      <p>
        <Link className="button" to={back.to}>
          {back.label}
        </Link>
      </p>
    </div>
  );
}
