import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { Outlet, ScrollRestoration, useLocation, useNavigation } from 'react-router';
import { LeaveGuardProvider } from '../../components/LeaveGuard.tsx';
import { ToastRegion } from '../../components/toasts.tsx';
import { ImportWatch } from '../../features/imports/components/ImportWatch.tsx';
import { LiveNotifications } from '../../features/notifications/components/LiveNotifications.tsx';
import { SIDEBAR_AUTO_CLOSE_WIDTH } from '../../lib/constants.ts';
import { Header } from './Header.tsx';
import { Sidebar } from './Sidebar.tsx';

const NARROW_SCREEN = `(max-width: ${SIDEBAR_AUTO_CLOSE_WIDTH}px)`;
const isNarrowScreen = () => window.matchMedia(NARROW_SCREEN).matches;
const onScreenWidthChange = (change: () => void) => {
  const query = window.matchMedia(NARROW_SCREEN);
  query.addEventListener('change', change);
  return () => query.removeEventListener('change', change);
};

/**
 * Whether the screen is narrow (up to 768px wide), where the open sidebar covers the page under a
 * backdrop (styles.css) instead of sitting beside it.
 */
const useNarrowScreen = () => useSyncExternalStore(onScreenWidthChange, isNarrowScreen);

const HEADING_WAIT_MS = 10_000;

/**
 * After a client-side navigation, focus the new page's heading so screen readers announce it; an
 * address with a #fragment (a link to a part of a page, e.g. paths.privateFeed) instead scrolls to
 * that part and focuses it, on the first load too, once nothing on the page is loading any more.
 * Pages that load data show their heading a moment later: focus waits in <main> until it appears,
 * unless the user has moved focus elsewhere meanwhile.
 */
function useRouteFocus() {
  const { pathname, hash } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    const fragment = hash.length > 1 ? decodeURIComponent(hash.slice(1)) : null;
    const isFirst = first.current;
    first.current = false;
    if (isFirst && !fragment) return;
    const main = document.getElementById('main');
    if (!main) return;
    // A part of a page is scrolled to once the page has loaded what comes before it.
    const target = () =>
      fragment
        ? main.querySelector('.status-loading')
          ? null
          : document.getElementById(fragment)
        : main.querySelector<HTMLElement>('[data-page-heading]');
    const land = (element: HTMLElement) => {
      if (!fragment) return element.focus({ preventScroll: true });
      if (!element.hasAttribute('tabindex')) element.tabIndex = -1;
      element.focus({ preventScroll: true });
      element.scrollIntoView({ block: 'start' });
    };
    const stillWaiting = () =>
      document.activeElement === main || document.activeElement === document.body;
    const found = target();
    if (found) {
      land(found);
      return;
    }
    main.focus({ preventScroll: true });
    const observer = new MutationObserver(() => {
      const late = target();
      if (!late) return;
      observer.disconnect();
      if (stillWaiting()) land(late);
    });
    observer.observe(main, { childList: true, subtree: true });
    const timer = setTimeout(() => observer.disconnect(), HEADING_WAIT_MS);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  }, [pathname, hash]);
}

export function RootLayout() {
  const [sidebarOpen, setSidebarOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const narrow = useNarrowScreen();
  // Over the page, the sidebar keeps focus (and screen readers) in it: the rest is out of reach.
  const covered = sidebarOpen && narrow;
  const navigation = useNavigation();
  useRouteFocus();

  const closeSidebar = useCallback(() => setSidebarOpen(false), []);
  const onSidebarLink = useCallback(() => {
    if (isNarrowScreen()) setSidebarOpen(false);
  }, []);

  return (
    // The one leave guard of the app: pages say what leaving them would lose (useLeaveGuard).
    <LeaveGuardProvider>
      <div className={`app${sidebarOpen ? ' sidebar-is-open' : ''}`}>
        <a
          className="skip-link"
          href="#main"
          inert={covered}
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
        <Header
          sidebarOpen={sidebarOpen}
          onToggleSidebar={() => setSidebarOpen((open) => !open)}
          menuButtonRef={menuButton}
          inert={covered}
        />
        <div className="shell">
          <Sidebar
            open={sidebarOpen}
            onClose={closeSidebar}
            onNavigate={onSidebarLink}
            opener={menuButton}
          />
          <main id="main" tabIndex={-1} inert={covered}>
            <Outlet />
          </main>
        </div>
        <footer className="site-footer" inert={covered}>
          <p>Inkwell — stories, chapter by chapter.</p>
        </footer>
        <ToastRegion />
        <LiveNotifications />
        {/* Imports are followed here, not on their page: one may end after the author left it. */}
        <ImportWatch />
        <ScrollRestoration />
      </div>
    </LeaveGuardProvider>
  );
}
