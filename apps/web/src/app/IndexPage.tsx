import { lazy, Suspense } from 'react';
import { Loading } from '../components/Status.tsx';
import { loadChunk } from '../lib/chunks.ts';
import { useSession } from '../lib/session.tsx';

const HomePage = lazy(() =>
  loadChunk(() => import('./routes/home.tsx')).then((m) => ({ default: m.HomePage })),
);
const LandingPage = lazy(() =>
  loadChunk(() => import('./routes/home.tsx')).then((m) => ({ default: m.LandingPage })),
);

/** index: the home page when signed in, the landing page when not. */
export function IndexPage() {
  const { state } = useSession();
  if (state.status === 'loading') return <Loading />;
  return (
    <Suspense fallback={<Loading />}>
      {state.status === 'in' ? <HomePage /> : <LandingPage />}
    </Suspense>
  );
}
