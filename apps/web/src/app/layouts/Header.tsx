import { normalizeSearchText, SEARCH_QUERY_MAX_LENGTH } from '@inkwell/contract/search-text';
import { useEffect, useState, type FormEvent, type Ref } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { Avatar } from '../../components/Avatar.tsx';
import { NotificationBell } from '../../features/notifications/components/NotificationBell.tsx';
import { paths } from '../../lib/paths.ts';
import { useSession } from '../../lib/session.tsx';
import { displayName } from '../../lib/titles.ts';
import { Logo } from './Logo.tsx';

function SearchBox() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const current = pathname === '/books/search' ? (params.get('q') ?? '') : '';
  const [query, setQuery] = useState(current);
  useEffect(() => setQuery(current), [current]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    // Whatever was typed or pasted is a query: controls dropped, cut to the bound (never an error).
    const q = normalizeSearchText(query).trim();
    if (q) navigate(paths.search(q));
  };
  return (
    <form className="search" role="search" onSubmit={submit}>
      <label htmlFor="site-search" className="visually-hidden">
        Search for books
      </label>
      <input
        id="site-search"
        type="search"
        name="q"
        placeholder="Search for books"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        maxLength={SEARCH_QUERY_MAX_LENGTH}
        autoComplete="off"
      />
      <button type="submit" className="search-button" aria-label="Search">
        <svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18">
          <path
            fill="currentColor"
            d="M10 2a8 8 0 0 1 6.32 12.9l5.39 5.4-1.41 1.4-5.4-5.38A8 8 0 1 1 10 2Zm0 2a6 6 0 1 0 0 12 6 6 0 0 0 0-12Z"
          />
        </svg>
      </button>
    </form>
  );
}

export function Header({
  sidebarOpen,
  onToggleSidebar,
  menuButtonRef,
  inert,
}: {
  sidebarOpen: boolean;
  onToggleSidebar(): void;
  /** The menu button, where focus goes back when the sidebar closes. */
  menuButtonRef?: Ref<HTMLButtonElement>;
  /** Out of reach while the sidebar covers the page (narrow screens). */
  inert?: boolean;
}) {
  const { state } = useSession();
  const { pathname, search } = useLocation();
  return (
    <header className="site-header" inert={inert}>
      <button
        ref={menuButtonRef}
        type="button"
        className="icon-button burger"
        aria-label={sidebarOpen ? 'Close menu' : 'Open menu'}
        aria-expanded={sidebarOpen}
        aria-controls="sidebar"
        onClick={onToggleSidebar}
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" width="22" height="22">
          <path fill="currentColor" d="M3 6h18v2H3zm0 5h18v2H3zm0 5h18v2H3z" />
        </svg>
      </button>
      <Link to={paths.home} className="brand" aria-label="Inkwell home">
        <Logo />
        <span className="brand-name" aria-hidden="true">
          Inkwell
        </span>
      </Link>
      <SearchBox />
      <nav className="user-nav" aria-label="Account">
        {state.status === 'in' ? (
          <>
            <Link to={paths.library} className="icon-button nav-link">
              <svg aria-hidden="true" viewBox="0 0 24 24" width="22" height="22">
                <path
                  fill="currentColor"
                  d="M4 4h3v16H4zm4 0h3v16H8zm4.2.6 2.9-.8 4.2 15.5-2.9.8z"
                />
              </svg>
              <span className="nav-label">My Library</span>
            </Link>
            <NotificationBell />
            <Link to={paths.author(state.account.username)} className="user-link">
              <Avatar
                src={state.account.avatar}
                name={state.account.username}
                size={32}
                decorative
              />
              <span className="user-name">{displayName(state.account)}</span>
            </Link>
            <Link to={paths.logout} className="button button-quiet">
              Log Out
            </Link>
          </>
        ) : state.status === 'out' ? (
          <>
            <Link
              to={
                pathname.startsWith('/accounts/') ? paths.login() : paths.login(pathname + search)
              }
              className="button button-quiet"
            >
              Log In
            </Link>
            <Link to={paths.signup} className="button">
              Sign Up
            </Link>
          </>
        ) : null}
      </nav>
    </header>
  );
}
