import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { formatDateTime } from '../../../lib/format.ts';
import { inboxQuery, notificationHref, useMarkAllRead } from '../api/notifications.ts';

/** The bell in the header: the inbox with an unread count; opening it marks everything read. */
export function NotificationBell() {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const inbox = useQuery(inboxQuery());
  const unread = inbox.data?.unread_count ?? 0;
  const markRead = useMarkAllRead();
  // What was unread when the panel opened stays marked as new while it is open: opening marks
  // everything read at once, and the inbox asked again would otherwise unmark it under the eye.
  const [newWhenOpened, setNewWhenOpened] = useState<ReadonlySet<number>>(new Set());

  useEffect(() => {
    if (!open) return;
    // Escape gives focus back to the bell: the panel it was in is hidden now.
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      // Taken: the sidebar, open beside the page, leaves an Escape that closed something else.
      e.preventDefault();
      setOpen(false);
      button.current?.focus();
    };
    const onClick = (e: MouseEvent) =>
      !wrapper.current?.contains(e.target as Node) && setOpen(false);
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onClick);
    };
  }, [open]);

  const toggle = () => {
    const next = !open;
    setOpen(next);
    setNewWhenOpened(
      new Set(next ? inbox.data?.notifications.filter((n) => !n.is_read).map((n) => n.id) : []),
    );
    if (next && unread > 0) markRead.mutate();
  };

  return (
    <div className="bell" ref={wrapper}>
      <button
        ref={button}
        type="button"
        className="icon-button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
        onClick={toggle}
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" width="22" height="22">
          <path
            fill="currentColor"
            d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1Z"
          />
        </svg>
        {unread > 0 && (
          <span className="badge" aria-hidden="true">
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </button>
      <div id={panelId} className="bell-panel" hidden={!open}>
        <h2 className="bell-title">Notifications</h2>
        {inbox.isPending && <p className="status">Loading...</p>}
        {inbox.isError && <p className="status status-error">Could not load notifications.</p>}
        {inbox.data && inbox.data.notifications.length === 0 && (
          <p className="status">No notifications yet.</p>
        )}
        {inbox.data && inbox.data.notifications.length > 0 && (
          <ul className="bell-list">
            {inbox.data.notifications.map((n) => {
              const href = notificationHref(n);
              return (
                <li key={n.id} className={n.is_read && !newWhenOpened.has(n.id) ? '' : 'is-unread'}>
                  {href ? (
                    <Link to={href} onClick={() => setOpen(false)}>
                      {n.message}
                    </Link>
                  ) : (
                    <span>{n.message}</span>
                  )}
                  <time dateTime={n.created_at}>{formatDateTime(n.created_at)}</time>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </div>
  );
}
