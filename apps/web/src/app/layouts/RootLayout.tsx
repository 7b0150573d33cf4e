import { useCallback, useEffect, useRef, useState } from 'react';
import { Outlet, ScrollRestoration, useLocation, useNavigation } from 'react-router';
import { ToastRegion } from '../../components/toasts.tsx';
import { LiveNotifications } from '../../features/notifications/components/LiveNotifications.tsx';
import { SIDEBAR_AUTO_CLOSE_WIDTH } from '../../lib/constants.ts';
import { Header } from './Header.tsx';
import { Sidebar } from './Sidebar.tsx';

const isNarrowScreen = () =>
  window.matchMedia(`(max-width: ${SIDEBAR_AUTO_CLOSE_WIDTH}px)`).matches;

const HEADING_WAIT_MS = 10_000;

/**
 * After a client-side navigation, focus the new page's heading so screen readers announce it.
 * Pages that load data show their heading a moment later: focus waits in <main> until it appears,
 * unless the user has moved focus elsewhere meanwhile.
 */
function useRouteFocus() {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const main = document.getElementById('main');
    if (!main) return;
    const heading = () => main.querySelector<HTMLElement>('[data-page-heading]');
    const stillWaiting = () =>
      document.activeElement === main || document.activeElement === document.body;
    const found = heading();
    if (found) {
      found.focus({ preventScroll: true });
      return;
    }
    main.focus({ preventScroll: true });
    const observer = new MutationObserver(() => {
      const late = heading();
      if (!late) return;
      observer.disconnect();
      if (stillWaiting()) late.focus({ preventScroll: true });
    });
    observer.observe(main, { childList: true, subtree: true });
    const timer = setTimeout(() => observer.disconnect(), HEADING_WAIT_MS);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  }, [pathname]);
}

export function RootLayout() {
  const [sidebarOpen, setSidebarOpen] = useState(false);
  const navigation = useNavigation();
  useRouteFocus();

  const closeSidebar = useCallback(() => setSidebarOpen(false), []);
  const onSidebarLink = useCallback(() => {
    if (isNarrowScreen()) setSidebarOpen(false);
  }, []);

  return (
    <div className={`app${sidebarOpen ? ' sidebar-is-open' : ''}`}>
      <a
        className="skip-link"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to content
      </a>
      {navigation.state === 'loading' && (
        <div className="route-progress" role="progressbar" aria-label="Loading page" />
      )}
      <Header sidebarOpen={sidebarOpen} onToggleSidebar={() => setSidebarOpen((open) => !open)} />
      <div className="shell">
        <Sidebar open={sidebarOpen} onClose={closeSidebar} onNavigate={onSidebarLink} />
        <main id="main" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
      <footer className="site-footer">
        <p>Inkwell — stories, chapter by chapter.</p>
      </footer>
      <ToastRegion />
      <LiveNotifications />
      <ScrollRestoration />
    </div>
  );
}
