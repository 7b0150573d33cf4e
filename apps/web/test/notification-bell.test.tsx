import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { inboxQuery } from '../src/features/notifications/api/notifications.ts';
import { LiveNotifications } from '../src/features/notifications/components/LiveNotifications.tsx';
import { NotificationBell } from '../src/features/notifications/components/NotificationBell.tsx';
import { ToastProvider } from '../src/components/toasts.tsx';
import { createQueryClient } from '../src/lib/query.ts';
import { keys } from '../src/lib/query-keys.ts';
import { SessionProvider } from '../src/lib/session.tsx';
import { FakeBrowserSocket as FakeSocket } from './fake-browser-socket.ts';
import { accountFixture } from './fixtures.ts';

afterEach(() => vi.unstubAllGlobals());

const notice = (id: number, isRead: boolean) => ({
  id,
  type: 'FOLLOW',
  message: `Reader ${id} followed you`,
  book_id: null,
  chapter_id: null,
  comment_id: null,
  announcement_id: null,
  follower: `reader${id}`,
  is_read: isRead,
  created_at: '2026-11-29T10:00:00.000Z',
});

describe('the notification bell', () => {
  it('keeps what was new marked while the panel is open, though opening marked it read', async () => {
    let markedRead = false;
    const fetchMock = vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.method === 'POST') {
        markedRead = true;
        return Response.json({ updated: 2 });
      }
      return Response.json({
        notifications: [notice(2, markedRead), notice(1, markedRead)],
        unread_count: markedRead ? 0 : 2,
      });
    });
    vi.stubGlobal('fetch', fetchMock);
    const router = createMemoryRouter([{ path: '/', element: <NotificationBell /> }]);
    render(
      <QueryClientProvider client={createQueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    const bell = await screen.findByRole('button', { name: 'Notifications, 2 unread' });
    await userEvent.click(bell);
    // Marked read, and the inbox asked again: the badge goes, the highlight stays while open.
    await screen.findByRole('button', { name: 'Notifications' });
    await waitFor(() => expect(fetchMock.mock.calls.length).toBeGreaterThanOrEqual(3));
    const items = () => screen.getAllByRole('listitem');
    expect(items().map((li) => li.className)).toEqual(['is-unread', 'is-unread']);
    // Closed and opened again, they are old news.
    await userEvent.click(screen.getByRole('button', { name: 'Notifications' }));
    await userEvent.click(screen.getByRole('button', { name: 'Notifications' }));
    expect(items().map((li) => li.className)).toEqual(['', '']);
    // Escape from a link in the panel: focus goes back to the bell, not to the page's start.
    screen.getByRole('link', { name: 'Reader 2 followed you' }).focus();
    await userEvent.keyboard('{Escape}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Notifications' }));
  });
});

/** LiveNotifications for a signed-in reader, on a fake socket, with an empty inbox. */
function renderLive(client: QueryClient) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) =>
      String(input).endsWith('/api/socket-tickets')
        ? Response.json({ ticket: 't', expires_in: 60 }, { status: 201 })
        : Response.json({ notifications: [], unread_count: 0 }),
    ),
  );
  vi.stubGlobal('WebSocket', FakeSocket);
  FakeSocket.opened = [];
  render(
    <QueryClientProvider client={client}>
      <SessionProvider
        initial={{ status: 'in', token: 'token', account: accountFixture(1, 'ann') }}
      >
        <ToastProvider>
          <LiveNotifications />
        </ToastProvider>
      </SessionProvider>
    </QueryClientProvider>,
  );
}

describe('live notifications', () => {
  it('ask for the inbox again once a lost socket is back: what came meanwhile was pushed to no one', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const client = createQueryClient();
    renderLive(client);
    await client.prefetchQuery(inboxQuery());
    await waitFor(() => expect(FakeSocket.opened).toHaveLength(1));
    FakeSocket.opened[0]!.onopen?.();
    expect(client.getQueryState(keys.notifications)?.isInvalidated).toBe(false);
    // The backend is replaced: the socket closes, and another opens a second later.
    FakeSocket.opened[0]!.onclose?.({ code: 1006 });
    await vi.advanceTimersByTimeAsync(1_000);
    await waitFor(() => expect(FakeSocket.opened).toHaveLength(2));
    FakeSocket.opened[1]!.onopen?.();
    expect(client.getQueryState(keys.notifications)?.isInvalidated).toBe(true);
    vi.useRealTimers();
  });

  it("refresh a new chapter's book, chapter list, unread counts, library and recent chapters as its toast arrives", async () => {
    const client = createQueryClient();
    // What a reader on the book's last chapter has loaded.
    client.setQueryData(keys.bookChapters(7), []);
    client.setQueryData(keys.book(7), { id: 7 });
    client.setQueryData(keys.followedBooks, []);
    client.setQueryData(keys.bookChapters(8), []);
    client.setQueryData(keys.library, []);
    client.setQueryData(keys.authorRecentChapters(3, false), []);
    renderLive(client);
    await waitFor(() => expect(FakeSocket.opened).toHaveLength(1));
    FakeSocket.opened[0]!.onopen?.();
    FakeSocket.opened[0]!.onmessage?.({
      data: JSON.stringify({ type: 'CHAPTER', message: 'New chapter', book_id: 7, chapter_id: 70 }),
    });
    for (const key of [
      keys.bookChapters(7),
      keys.book(7),
      keys.followedBooks,
      keys.library,
      keys.authorRecentChapters(3, false),
    ])
      await waitFor(() => expect(client.getQueryState(key)?.isInvalidated).toBe(true));
    expect(client.getQueryState(keys.bookChapters(8))?.isInvalidated).toBe(false);
  });
});
