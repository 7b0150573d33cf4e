import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { PageTitle } from '../components/Page.tsx';
import { paths } from '../lib/paths.ts';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return error.message;
  return 'Something went wrong.';
}

/** A router failure inside the shell (SPEC section 2: 'Unexpected Application Error!'). */
export function ErrorPage() {
  const error = useRouteError();
  return (
    <div className="page page-narrow error-page">
      <PageTitle>Unexpected Application Error!</PageTitle>
      <p className="error-detail">{describe(error)}</p>
      <p>
        <Link className="button" to={paths.home}>
          Go to the home page
        </Link>{' '}
        <button
          type="button"
          className="button button-quiet"
          onClick={() => window.location.reload()}
        >
          Reload
        </button>
      </p>
    </div>
  );
}

/** The last resort when the shell itself failed: no header, a plain page. */
export function RootErrorPage() {
  return (
    <main id="main" className="page page-narrow error-page">
      <ErrorPage />
    </main>
  );
}
