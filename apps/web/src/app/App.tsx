import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { ToastProvider } from '../components/toasts.tsx';
import { AppearanceProvider } from '../lib/appearance.tsx';
import { createQueryClient } from '../lib/query.ts';
import { SessionProvider } from '../lib/session.tsx';
import { createAppRouter } from './router.tsx';

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(() => createAppRouter(queryClient));
  // Whoever signs in or out, answers asked as the previous viewer are asked again.
  const [askAgain] = useState(() => () => void queryClient.invalidateQueries());
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider onAccountChange={askAgain}>
        <AppearanceProvider>
          <ToastProvider>
            <RouterProvider router={router} />
          </ToastProvider>
        </AppearanceProvider>
      </SessionProvider>
    </QueryClientProvider>
  );
}
