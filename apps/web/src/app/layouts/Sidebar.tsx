import { useEffect, useRef, type RefObject } from 'react';
import { Link, NavLink } from 'react-router';
import { paths } from '../../lib/paths.ts';
import { useSession } from '../../lib/session.tsx';
import { Logo } from './Logo.tsx';

interface SidebarProps {
  open: boolean;
  onClose(): void;
  /** A link was followed: on screens up to 768px wide this closes the sidebar. */
  onNavigate(): void;
  /** The header's menu button, which opens the sidebar: focus goes back to it when it closes. */
  opener: RefObject<HTMLElement | null>;
}

/** Input types that are buttons or pickers rather than fields one types in (Escape is theirs). */
const NOT_TYPED = new Set([
  'button',
  'checkbox',
  'color',
  'file',
  'hidden',
  'image',
  'radio',
  'range',
  'reset',
  'submit',
]);

const isTextField = (element: Element) =>
  element instanceof HTMLTextAreaElement ||
  (element instanceof HTMLInputElement && !NOT_TYPED.has(element.type)) ||
  !!element.closest('[contenteditable]:not([contenteditable="false"])');

const DIALOG = 'dialog[open], [role="dialog"], [role="alertdialog"]';

export function Sidebar({ open, onClose, onNavigate, opener }: SidebarProps) {
  const { state } = useSession();
  const aside = useRef<HTMLElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);

  useEffect(() => {
    if (!open) return;
    closeButton.current?.focus();
    // On the window, so that it runs after every handler on the element and the document (e.g. the
    // chapter list's drag and drop) has had its say: an Escape one of them took (a cancelled rename,
    // closed suggestions, a cancelled drag) or one meant for a dialog or a field on the page is not
    // for the sidebar.
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented || e.isComposing) return;
      const target = e.target instanceof Element ? e.target : null;
      const inSidebar = !!target && !!aside.current?.contains(target);
      if (target && !inSidebar && (target.closest(DIALOG) || isTextField(target))) return;
      onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, onClose]);

  // Closed (Escape, its Close button, the backdrop, a link on a phone): the sidebar is inert now, so
  // focus that was in it would fall to <body>; it goes back to the menu button instead. Focus the
  // user had put elsewhere stays there, and a new page's heading takes it after a link
  // (RootLayout's route focus runs after this).
  useEffect(() => {
    if (open) {
      wasOpen.current = true;
      return;
    }
    if (!wasOpen.current) return;
    wasOpen.current = false;
    const active = document.activeElement;
    if (!active || active === document.body || aside.current?.contains(active)) {
      opener.current?.focus();
    }
  }, [open, opener]);

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
        ref={aside}
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
