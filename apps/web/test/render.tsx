import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { RouterProvider, type createMemoryRouter } from 'react-router';
import { ToastProvider, ToastRegion } from '../src/components/toasts.tsx';
import { AppearanceProvider } from '../src/lib/appearance.tsx';
import { createQueryClient } from '../src/lib/query.ts';
import { SessionProvider, type SessionState } from '../src/lib/session.tsx';

export const SIGNED_OUT: SessionState = { status: 'out', token: null, account: null };

/**
 * Renders a memory router inside the app's providers (queries, session, appearance, toasts), as
 * the app does; with `toasts`, the toasts pushed are shown too (the app's layout shows them).
 */
export function renderRouter(
  router: ReturnType<typeof createMemoryRouter>,
  {
    session = SIGNED_OUT,
    client = createQueryClient(),
    toasts = false,
  }: { session?: SessionState; client?: QueryClient; toasts?: boolean } = {},
) {
  render(
    <QueryClientProvider client={client}>
      <SessionProvider initial={session}>
        <AppearanceProvider>
          <ToastProvider>
            <RouterProvider router={router} />
            {toasts && <ToastRegion />}
          </ToastProvider>
        </AppearanceProvider>
      </SessionProvider>
    </QueryClientProvider>,
  );
  return { client };
}
