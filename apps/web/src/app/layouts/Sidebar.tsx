import { useEffect, useRef } from 'react';
import { Link, NavLink } from 'react-router';
import { paths } from '../../lib/paths.ts';
import { useSession } from '../../lib/session.tsx';
import { Logo } from './Logo.tsx';

interface SidebarProps {
  open: boolean;
  onClose(): void;
  /** A link was followed: on screens up to 768px wide this closes the sidebar. */
  onNavigate(): void;
}

export function Sidebar({ open, onClose, onNavigate }: SidebarProps) {
  const { state } = useSession();
  const closeButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    closeButton.current?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, onClose]);

  const item = (to: string, label: string, end = false) => (
    <li>
      <NavLink to={to} end={end} onClick={onNavigate}>
        {label}
      </NavLink>
    </li>
  );

  return (
    <>
      <div className="sidebar-backdrop" hidden={!open} onClick={onClose} />
      <aside
        id="sidebar"
        className={`sidebar${open ? ' is-open' : ''}`}
        aria-label="Sidebar"
        inert={!open}
      >
        <div className="sidebar-head">
          <Logo size={28} />
          <Link to={paths.home} className="sidebar-brand" onClick={onNavigate}>
            Inkwell
          </Link>
          <button
            ref={closeButton}
            type="button"
            className="icon-button"
            aria-label="Close menu"
            onClick={onClose}
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20">
              <path
                fill="currentColor"
                d="m6.4 5 5.6 5.6L17.6 5 19 6.4 13.4 12l5.6 5.6-1.4 1.4-5.6-5.6L6.4 19 5 17.6 10.6 12 5 6.4z"
              />
            </svg>
          </button>
        </div>
        <nav aria-label="Main">
          <ul className="sidebar-links">
            {item(paths.home, 'Home')}
            {item(paths.books, 'Books', true)}
            {item(paths.genres, 'Genres')}
          </ul>
          {state.status === 'in' && (
            <>
              <h2 className="sidebar-user">{state.account.username}</h2>
              <ul className="sidebar-links">
                {item(paths.author(state.account.username), 'Profile Page')}
                {item(paths.workspace, 'Workspace')}
                {item(paths.library, 'My Library')}
                {item(paths.importBook, 'Import')}
                {item(paths.settings(state.account.id), 'Settings')}
                {item(paths.readHistory, 'Read History')}
                {item(paths.following, 'Following')}
                {state.account.is_operator && item(paths.adminReports, 'Reports')}
              </ul>
            </>
          )}
        </nav>
      </aside>
    </>
  );
}
