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
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider>
        <AppearanceProvider>
          <ToastProvider>
            <RouterProvider router={router} />
          </ToastProvider>
        </AppearanceProvider>
      </SessionProvider>
    </QueryClientProvider>
  );
}
